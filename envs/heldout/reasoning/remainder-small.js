// Held-out reasoning (variant of library remainder-puzzle): a number up to 20 from its remainders by 4 and by 5.
export const spec = {
  name: 'remainder-small',
  description: 'I think of a whole number from 1 to 20. I tell you its remainders when divided by 4 and by 5. Answer with the number. Two tries.',
  hint: 'Of the candidates, exactly four have the right remainder by 5: list them and keep the one whose remainder by 4 also fits.',
  maxTurns: 2,
};

export default class Env {
  reset(seed) {
    this.n = kit.randInt(1, 20);
    this.left = 2;
    return { observation: `Divided by 4 it leaves ${this.n % 4}; divided by 5 it leaves ${this.n % 5}. Which number from 1 to 20?` };
  }
  step(action) {
    const g = kit.parseNumber(action);
    if (g === this.n) return { observation: 'Right!', reward: 1, terminated: true };
    this.left -= 1;
    return { observation: `No. Tries left: ${this.left}.`, reward: 0, terminated: this.left === 0 };
  }
}

export function oracle(observation, history) {
  const [, r4, , r5] = kit.parseNumbers(history.length ? history[0].observation : observation);
  return String(kit.range(1, 21).find((n) => n % 4 === r4 && n % 5 === r5));
}
