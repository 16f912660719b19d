// Held-out game (variant of library mastermind): a 3-digit code of digits 1-4; feedback counts exact and misplaced digits.
const LEN = 3, DIGITS = 4, GUESSES = 7; // difficulty knobs
const CODES = kit.range(DIGITS ** LEN).map((n) => kit.range(LEN).map((i) => 1 + (Math.floor(n / DIGITS ** i) % DIGITS)).join(''));

function score(secret, guess) {
  let exact = 0;
  const a = {}, b = {};
  for (let i = 0; i < LEN; i++) {
    if (secret[i] === guess[i]) exact++;
    else (a[secret[i]] = (a[secret[i]] || 0) + 1), (b[guess[i]] = (b[guess[i]] || 0) + 1);
  }
  let near = 0;
  for (const d in b) near += Math.min(b[d], a[d] || 0);
  return [exact, near];
}

export const spec = {
  name: 'code-break-3',
  description: `Break a ${LEN}-digit code made of digits 1 to ${DIGITS} (digits may repeat). Answer with ${LEN} digits, e.g. "123". I reply how many digits are right and in place, and how many are right but misplaced. ${GUESSES} guesses.`,
  hint: 'After every reply, only consider codes that would have given exactly the same replies to all of your earlier guesses, and guess one of those.',
  maxTurns: GUESSES,
};

export default class Env {
  reset(seed) {
    this.secret = kit.pick(CODES);
    this.left = GUESSES;
    return { observation: `Guess the code. Guesses left: ${GUESSES}.` };
  }
  step(action) {
    const g = String(action).replace(/\s+/g, '').slice(0, LEN);
    this.left -= 1;
    if (g === this.secret) return { observation: 'Code broken!', reward: 1, terminated: true };
    const clue = CODES.includes(g) ? `${g}: ${score(this.secret, g)[0]} in place, ${score(this.secret, g)[1]} misplaced.` : `Answer with ${LEN} digits from 1 to ${DIGITS}.`;
    if (this.left === 0) return { observation: `${clue} No guesses left.`, reward: 0, terminated: true };
    return { observation: `${clue} Guesses left: ${this.left}.`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const replies = history.slice(1).map((h) => h.observation).concat(observation);
  const known = history.map((h, i) => ({ guess: h.action, fb: kit.parseNumbers(replies[i]).slice(1, 3) }));
  const fit = CODES.find((c) => known.every(({ guess, fb }) => { const s = score(c, guess); return s[0] === fb[0] && s[1] === fb[1]; }));
  return fit || CODES[0];
}
