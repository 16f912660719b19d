// Held-out game (variant of library higher-lower): find a number from 1 to 31 in five guesses, told "bigger" or "smaller".
const TOP = 31; // difficulty knob (with GUESSES): the range; 2^GUESSES - 1 is the most bisection can cover
const GUESSES = 5;

export const spec = {
  name: 'guess-small',
  description: `Find my secret whole number from 1 to ${TOP}. After a wrong guess I say whether the secret is bigger or smaller. ${GUESSES} guesses.`,
  hint: 'Keep track of the smallest and largest values still possible and always guess the middle one; five answers are just enough.',
  maxTurns: GUESSES,
};

export default class Env {
  reset(seed) {
    this.secret = kit.randInt(1, TOP);
    this.left = GUESSES;
    return { observation: `Guess a number from 1 to ${TOP}. Guesses left: ${GUESSES}.` };
  }
  step(action) {
    const n = kit.parseNumber(action);
    this.left -= 1;
    if (n === this.secret) return { observation: 'Found it!', reward: 1, terminated: true };
    const clue = n === null ? 'Not a number.' : `The secret is ${n < this.secret ? 'bigger' : 'smaller'} than ${n}.`;
    if (this.left === 0) return { observation: `${clue} Out of guesses.`, reward: 0, terminated: true };
    return { observation: `${clue} Guesses left: ${this.left}.`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  let lo = 1, hi = TOP;
  const replies = history.slice(1).map((h) => h.observation).concat(observation);
  history.forEach(({ action }, i) => {
    const n = kit.parseNumber(action);
    if (replies[i].includes('bigger')) lo = Math.max(lo, n + 1);
    if (replies[i].includes('smaller')) hi = Math.min(hi, n - 1);
  });
  return String(Math.floor((lo + hi) / 2));
}
