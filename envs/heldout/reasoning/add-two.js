// Held-out reasoning (new, easy): add two two-digit numbers.
const HI = 49; // difficulty knob: the range of the addends

export const spec = {
  name: 'add-two',
  description: 'Add the two numbers and answer with the sum as a number. One try.',
  hint: 'Add the ones digits first and carry one to the tens when they pass nine.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    this.a = kit.randInt(11, HI);
    this.b = kit.randInt(11, HI);
    return { observation: `What is ${this.a} plus ${this.b}?` };
  }
  step(action) {
    const ok = kit.parseNumber(action) === this.a + this.b;
    return { observation: ok ? 'Correct.' : 'Wrong sum.', reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const [a, b] = kit.parseNumbers(observation);
  return String(a + b);
}
