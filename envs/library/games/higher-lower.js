// Game: find a hidden number from 1 to 1000 with "higher"/"lower" answers and only ten guesses.
export const spec = {
  name: 'higher-lower',
  description: 'I picked a whole number from 1 to 1000. Guess it; after each wrong guess I say higher or lower. Ten guesses.',
  hint: 'Keep the lowest and highest numbers still possible and always guess exactly halfway between them: each answer halves the range, and ten halvings are just enough for a thousand numbers.',
  maxTurns: 10,
};

export default class Env {
  reset(seed) {
    this.secret = kit.randInt(1, 1000);
    this.left = 10;
    return { observation: 'Guess a number from 1 to 1000. Guesses left: 10.' };
  }
  step(action) {
    const n = kit.parseNumber(action);
    this.left -= 1;
    if (n === this.secret) return { observation: `${n} is right!`, reward: 1, terminated: true };
    const clue = n === null ? 'That is not a number.' : `${n}: ${n < this.secret ? 'higher' : 'lower'}.`;
    if (this.left === 0) return { observation: `${clue} No guesses left; it was ${this.secret}.`, reward: 0, terminated: true };
    return { observation: `${clue} Guesses left: ${this.left}.`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  let lo = 1, hi = 1000;
  const replies = history.slice(1).map((h) => h.observation).concat(observation);
  history.forEach(({ action }, i) => {
    const n = kit.parseNumber(action);
    if (replies[i].includes('higher')) lo = Math.max(lo, n + 1);
    if (replies[i].includes('lower')) hi = Math.min(hi, n - 1);
  });
  return String(Math.floor((lo + hi) / 2));
}
