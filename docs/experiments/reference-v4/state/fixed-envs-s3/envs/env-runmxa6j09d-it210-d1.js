// Game (small-model family): find a number with higher/lower answers. The instance's hint gives a window of WINDOW
// numbers that holds it, so hinted play bisects the window instead of the whole range. Knobs: TOP, GUESSES, WINDOW.
const TOP = 64;
const GUESSES = 6;
const WINDOW = 16;

export const spec = {
  name: 'window-search',
  description: `Find my number from 1 to ${TOP}. After a wrong guess I say higher or lower. ${GUESSES} guesses.`,
  hint: 'Guess the middle of what is still possible.',
  maxTurns: GUESSES,
};

export default class Env {
  reset(seed) {
    this.secret = kit.randInt(1, TOP);
    const lo = Math.min(Math.max(1, this.secret - kit.randInt(0, WINDOW - 1)), TOP - WINDOW + 1);
    this.left = GUESSES;
    return { observation: `Guess a number from 1 to ${TOP}.`, hint: `It is between ${lo} and ${lo + WINDOW - 1}.` };
  }
  step(action) {
    const n = kit.parseNumber(action);
    this.left -= 1;
    if (n === this.secret) return { observation: 'Right!', reward: 1, terminated: true };
    const clue = n === null ? 'Not a number.' : `${n}: ${n < this.secret ? 'higher' : 'lower'}.`;
    return { observation: `${clue} Guesses left: ${this.left}.`, reward: 0, terminated: this.left === 0 };
  }
}

export function oracle(observation, history, hint) {
  // Hinted: bisect the hinted window; else the whole range.
  const window = hint ? kit.parseNumbers(hint) : [];
  let lo = window.length === 2 ? window[0] : 1, hi = window.length === 2 ? window[1] : TOP;
  const replies = history.slice(1).map((h) => h.observation).concat(observation);
  history.forEach(({ action }, i) => { const n = Number(action); if (replies[i].includes('higher')) lo = n + 1; else hi = n - 1; });
  return String(Math.floor((lo + hi) / 2));
}
