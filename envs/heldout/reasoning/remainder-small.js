// Held-out reasoning (variant of library remainder-puzzle): a number up to 60 from its remainders by 3, 4 and 5.
export const spec = {
  name: 'remainder-small',
  description: 'I think of a whole number from 1 to 60. I tell you its remainders when divided by 3, by 4 and by 5. Answer with the number. Two tries.',
  hint: 'Of the candidates, exactly twelve have the right remainder by 5: keep those whose remainder by 4 also fits, then the one whose remainder by 3 does.',
  maxTurns: 2,
};

export default class Env {
  reset(seed) {
    this.n = kit.randInt(1, 60);
    this.left = 2;
    return { observation: `Divided by 3 it leaves ${this.n % 3}; divided by 4 it leaves ${this.n % 4}; divided by 5 it leaves ${this.n % 5}. Which number from 1 to 60?` };
  }
  step(action) {
    const g = kit.parseNumber(action);
    if (g === this.n) return { observation: 'Right!', reward: 1, terminated: true };
    this.left -= 1;
    return { observation: `No. Tries left: ${this.left}.`, reward: 0, terminated: this.left === 0 };
  }
}

export function oracle(observation, history) {
  const [, r3, , r4, , r5] = kit.parseNumbers(history.length ? history[0].observation : observation);
  return String(kit.range(1, 61).find((n) => n % 3 === r3 && n % 4 === r4 && n % 5 === r5));
}
