// Reasoning: find the number from its remainders modulo 3, 5 and 7 (the Chinese remainder theorem, small scale).
export const spec = {
  name: 'remainder-puzzle',
  description: 'A hidden whole number from 1 to 105 is described by its remainders when divided by 3, 5 and 7. Name the number. Two tries.',
  hint: 'Exactly one number in the range fits. Walk through the numbers with the right remainder for seven (r, r plus seven, r plus fourteen, ...) and keep the first that also fits for five and for three.',
  maxTurns: 2,
};

export default class Env {
  reset(seed) {
    this.x = kit.randInt(1, 105);
    this.tries = 2;
    return { observation: this.describe() };
  }
  describe() {
    const x = this.x;
    return `Divided by 3 it leaves ${x % 3}; by 5 it leaves ${x % 5}; by 7 it leaves ${x % 7}. What is the number (1-105)?`;
  }
  step(action) {
    const n = kit.parseNumber(action);
    this.tries -= 1;
    if (n === this.x) return { observation: `Correct, it is ${n}.`, reward: this.tries === 1 ? 1 : 0.5, terminated: true };
    if (this.tries === 0) return { observation: `Wrong. It was ${this.x}.`, reward: 0, terminated: true };
    return { observation: `Wrong. ${this.describe()} One try left.`, reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const [, r3, , r5, , r7] = kit.parseNumbers(observation);
  for (let x = 1; x <= 105; x++) if (x % 3 === r3 && x % 5 === r5 && x % 7 === r7) return String(x);
  return '1';
}
