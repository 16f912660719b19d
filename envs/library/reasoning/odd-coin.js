// Reasoning: find the one heavier coin among 27 with a balance scale and only three weighings.
export const spec = {
  name: 'odd-coin',
  description: 'One of coins 1-27 is heavier than the others. Weigh with "weigh 1 2 3 vs 4 5 6" (same count on each pan), at most three times, then answer "coin N".',
  hint: 'Every weighing has three outcomes, so split the suspects into three equal groups and put two of them on the pans; the heavy coin is in the heavier group, or in the group left off if they balance.',
  maxTurns: 4,
};

export default class Env {
  reset(seed) {
    this.heavy = kit.randInt(1, 27);
    this.weighings = 0;
    return { observation: 'Coins 1-27 are on the table. Weighings left: 3.' };
  }
  step(action) {
    const a = kit.norm(action);
    if (a.includes('vs') && this.weighings < 3) {
      const [left, right] = a.split('vs').map((side) => [...new Set(kit.parseNumbers(side))]);
      if (left.length !== right.length || left.length === 0 || left.concat(right).some((c) => c < 1 || c > 27)) {
        return { observation: 'Invalid weighing: put the same number of distinct coins (1-27) on each pan. You lose.', reward: 0, terminated: true };
      }
      this.weighings += 1;
      const result = left.includes(this.heavy) ? 'Left pan is heavier.' : right.includes(this.heavy) ? 'Right pan is heavier.' : 'Balanced.';
      return { observation: `${result} Weighings left: ${3 - this.weighings}.`, reward: 0, terminated: false };
    }
    const ok = a.startsWith('coin') && kit.parseNumber(a) === this.heavy;
    return { observation: ok ? 'Correct!' : `Wrong, the heavy coin was ${this.heavy}.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation, history) {
  let suspects = kit.range(1, 28);
  history.forEach(({ action }, i) => {
    const result = (history[i + 1] ? history[i + 1].observation : observation);
    const [left, right] = action.split('vs').map((side) => kit.parseNumbers(side));
    suspects = result.startsWith('Left') ? left : result.startsWith('Right') ? right : suspects.filter((c) => !left.includes(c) && !right.includes(c));
  });
  if (suspects.length === 1) return `coin ${suspects[0]}`;
  const third = suspects.length / 3;
  return `weigh ${suspects.slice(0, third).join(' ')} vs ${suspects.slice(third, 2 * third).join(' ')}`;
}
