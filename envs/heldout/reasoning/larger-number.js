// Held-out reasoning (new, easy): name the larger of two whole numbers.
const HI = 99; // difficulty knob: the range of the numbers

export const spec = {
  name: 'larger-number',
  description: 'Two whole numbers are shown. Answer with the larger one. One try.',
  hint: 'Compare the tens digits first; only when they are equal do the ones digits decide.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    this.a = kit.randInt(10, HI);
    do this.b = kit.randInt(10, HI);
    while (this.b === this.a);
    return { observation: `Numbers: ${this.a} and ${this.b}. Which is larger?` };
  }
  step(action) {
    const ok = kit.parseNumber(action) === Math.max(this.a, this.b);
    return { observation: ok ? 'Correct.' : 'Wrong.', reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  return String(Math.max(...kit.parseNumbers(observation)));
}
