// Game: Mastermind, four pegs over six colours with repeats, ten guesses.
const COLOURS = 'ABCDEF';
const digits = (code) => code.split('').map((c) => COLOURS.indexOf(c));

// Feedback of guess g against secret s (arrays of colour indices) as exact * 10 + misplaced. Allocation-free,
// because the oracle scores up to 1296 codes per call.
const G = [0, 0, 0, 0, 0, 0], S = [0, 0, 0, 0, 0, 0];
function feedback(g, s) {
  let exact = 0, common = 0;
  G.fill(0);
  S.fill(0);
  for (let i = 0; i < 4; i++) {
    if (g[i] === s[i]) exact++;
    G[g[i]]++;
    S[s[i]]++;
  }
  for (let c = 0; c < 6; c++) common += G[c] < S[c] ? G[c] : S[c];
  return exact * 10 + common - exact;
}

export const spec = {
  name: 'mastermind',
  description: 'Guess the hidden code of four letters from A-F (letters may repeat). After each guess you get how many letters are exact and how many are right but misplaced. Ten guesses.',
  hint: 'Only guess codes that could still be the secret: a candidate must give exactly the same feedback against each earlier guess as the secret did. Early guesses with two pairs of letters rule out colours fastest.',
  maxTurns: 10,
};

export default class Env {
  reset(seed) {
    this.secret = kit.range(4).map(() => kit.pick(COLOURS)).join('');
    this.left = 10;
    return { observation: 'Guess the code (four letters A-F).' };
  }
  step(action) {
    const guess = (action.toUpperCase().match(/\b[A-F]{4}\b/) || [''])[0];
    this.left -= 1;
    if (guess === this.secret) return { observation: `${guess}: solved!`, reward: 1, terminated: true };
    const f = guess ? feedback(digits(guess), digits(this.secret)) : 0;
    const fb = guess ? `${guess}: ${Math.floor(f / 10)} exact, ${f % 10} misplaced.` : 'Not a code of four letters A-F.';
    if (this.left === 0) return { observation: `${fb} Out of guesses; the code was ${this.secret}.`, reward: 0, terminated: true };
    return { observation: `${fb} ${this.left} guesses left.`, reward: 0, terminated: false };
  }
}

// Plays the first code (in A-F order) that agrees with all feedback so far.
export function oracle(observation, history) {
  if (history.length === 0) return 'AABB';
  const results = history.slice(1).map((h) => h.observation).concat(observation);
  const seen = history.map(({ action }, i) => { const [exact, near] = kit.parseNumbers(results[i]); return [digits(action), exact * 10 + near]; });
  const code = [0, 0, 0, 0];
  for (code[0] = 0; code[0] < 6; code[0]++) for (code[1] = 0; code[1] < 6; code[1]++) for (code[2] = 0; code[2] < 6; code[2]++) {
    for (code[3] = 0; code[3] < 6; code[3]++) if (seen.every(([g, f]) => feedback(g, code) === f)) return code.map((d) => COLOURS[d]).join('');
  }
  return 'AAAA';
}
