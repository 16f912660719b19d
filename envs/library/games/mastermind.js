// Game: Mastermind, four pegs over six colours with repeats, ten guesses.
const COLOURS = 'ABCDEF';
// All 1296 codes, built on first use by the oracle so that loading the module stays cheap.
let all = null;
function allCodes() {
  if (all) return all;
  all = [];
  for (const a of COLOURS) for (const b of COLOURS) for (const c of COLOURS) for (const d of COLOURS) all.push(a + b + c + d);
  return all;
}

// [exact, misplaced] for a guess against a secret.
function score(guess, secret) {
  let exact = 0, common = 0;
  for (let i = 0; i < 4; i++) if (guess[i] === secret[i]) exact++;
  for (const c of COLOURS) common += Math.min(guess.split(c).length - 1, secret.split(c).length - 1);
  return [exact, common - exact];
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
    const [exact, near] = guess ? score(guess, this.secret) : [0, 0];
    const fb = guess ? `${guess}: ${exact} exact, ${near} misplaced.` : 'Not a code of four letters A-F.';
    if (this.left === 0) return { observation: `${fb} Out of guesses; the code was ${this.secret}.`, reward: 0, terminated: true };
    return { observation: `${fb} ${this.left} guesses left.`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  let cands = allCodes();
  const results = history.slice(1).map((h) => h.observation).concat(observation);
  history.forEach(({ action }, i) => {
    const [exact, near] = kit.parseNumbers(results[i]);
    cands = cands.filter((c) => { const [e, n] = score(action, c); return e === exact && n === near; });
  });
  return history.length === 0 ? 'AABB' : cands[0];
}
