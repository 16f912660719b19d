// Held-out reasoning (variant of library linear-system): two unknowns from their sum and difference, told as a story.
export const spec = {
  name: 'two-unknowns',
  description: 'Ana and Ben together have some marbles; you are told the total and how many more Ana has. Answer with Ana\'s count and Ben\'s count, e.g. "12 7". One try.',
  hint: 'Take the difference away from the total and halve the rest: that is the smaller count; add the difference back for the larger one.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    this.ben = kit.randInt(3, 40);
    this.ana = this.ben + kit.randInt(1, 25);
    return { observation: `Together they have ${this.ana + this.ben} marbles. Ana has ${this.ana - this.ben} more than Ben. How many each?` };
  }
  step(action) {
    const [a, b] = kit.parseNumbers(String(action).slice(0, 100));
    const ok = a === this.ana && b === this.ben;
    return { observation: ok ? 'Correct.' : 'Wrong counts.', reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const [total, diff] = kit.parseNumbers(observation);
  const ben = (total - diff) / 2;
  return `${ben + diff} ${ben}`;
}
