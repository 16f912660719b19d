// Reasoning: reach a target total exactly, adding one number from 1..9 per turn, within a tight turn budget.
export const spec = {
  name: 'sum-to-target',
  description: 'Reach the target total exactly by adding a number from 1 to 9 each turn, within the turn budget. Answer with a number.',
  hint: 'The budget is the fewest additions possible, so every addition but the last must be as large as allowed.',
  maxTurns: 8,
};

export default class Env {
  reset(seed) {
    do this.target = kit.randInt(20, 72);
    while (this.target % 9 === 0); // else always answering 9 would win
    this.total = 0;
    this.left = Math.ceil(this.target / 9);
    return { observation: `Target ${this.target}. Total 0. Additions left: ${this.left}.` };
  }
  step(action) {
    const n = kit.parseNumber(action);
    if (n === null || !Number.isInteger(n) || n < 1 || n > 9) {
      return { observation: 'Invalid: answer with a whole number from 1 to 9. You lose.', reward: 0, terminated: true };
    }
    this.total += n;
    this.left -= 1;
    if (this.total === this.target) return { observation: `Total ${this.total}. Target reached!`, reward: 1, terminated: true };
    if (this.total > this.target || this.left === 0) {
      return { observation: `Total ${this.total}. Target ${this.target} missed.`, reward: 0, terminated: true };
    }
    return { observation: `Target ${this.target}. Total ${this.total}. Additions left: ${this.left}.`, reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const [target, total] = kit.parseNumbers(observation);
  return String(Math.min(9, target - total));
}
