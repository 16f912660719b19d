// Game: tic-tac-toe against a scripted opponent that wins or blocks when it can and otherwise plays at random.
const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const winner = (b) => (LINES.find((l) => b[l[0]] !== '.' && b[l[0]] === b[l[1]] && b[l[1]] === b[l[2]]) || [])[0];
const free = (b) => kit.range(9).filter((i) => b[i] === '.');
const show = (b) => kit.grid([b.slice(0, 3), b.slice(3, 6), b.slice(6, 9)]);
// A cell that completes a line of `who`, if any.
const finisher = (b, who) => free(b).find((i) => { const c = b.slice(); c[i] = who; return winner(c) !== undefined; });

export const spec = {
  name: 'tic-tac-toe',
  description: 'You are X and move first; O moves after you. Cells are numbered 1-9 row by row. Answer with a cell number. Only a win scores.',
  hint: 'O blocks any line you could complete next turn but never looks further ahead, so build a fork: two lines that each need one more X. Taking corners (especially opposite ones) makes forks easy.',
  maxTurns: 5,
};

export default class Env {
  reset(seed) {
    this.board = Array(9).fill('.');
    return { observation: `${show(this.board)}\nYour move (1-9).` };
  }
  step(action) {
    const cell = kit.parseNumber(action) - 1, b = this.board;
    if (!(b[cell] === '.')) return { observation: 'Illegal move. You forfeit.', reward: 0, terminated: true };
    b[cell] = 'X';
    if (winner(b) !== undefined) return { observation: `${show(b)}\nYou win!`, reward: 1, terminated: true };
    if (free(b).length === 0) return { observation: `${show(b)}\nDraw.`, reward: 0, terminated: true };
    const o = [finisher(b, 'O'), finisher(b, 'X')].find((i) => i !== undefined);
    b[o !== undefined ? o : kit.pick(free(b))] = 'O';
    if (winner(b) !== undefined) return { observation: `${show(b)}\nO wins.`, reward: 0, terminated: true };
    return { observation: `${show(b)}\nYour move (1-9).`, reward: 0, terminated: false };
  }
}

// Best second X move (a cell number) after X took cell 1 and O took cell i + 1, found by the search below.
const SECOND = [0, 4, 4, 2, 6, 3, 2, 3, 3];

// Expected win probability for X to move, against the scripted O (expectimax over O's random choices).
function value(b) {
  let best = 0;
  for (const i of free(b)) best = Math.max(best, after(b, i));
  return best;
}
const memo = new Map();
function after(b, i) {
  const key = b.join('') + i;
  if (!memo.has(key)) memo.set(key, afterUncached(b, i));
  return memo.get(key);
}
function afterUncached(b, i) {
  const c = b.slice(); c[i] = 'X';
  if (winner(c) !== undefined) return 1;
  if (free(c).length === 0) return 0;
  const forced = [finisher(c, 'O'), finisher(c, 'X')].find((j) => j !== undefined);
  const replies = forced !== undefined ? [forced] : free(c);
  return replies.reduce((s, j) => { const d = c.slice(); d[j] = 'O'; return s + (winner(d) !== undefined ? 0 : value(d)); }, 0) / replies.length;
}

export function oracle(observation) {
  const b = observation.split('\n').slice(0, 3).join(' ').split(' ');
  // Opening book: the first two moves would need the largest searches (corner first, then the best reply to O).
  if (free(b).length === 9) return '1';
  if (free(b).length === 7 && b[0] === 'X') return String(SECOND[b.indexOf('O')]);
  let best = free(b)[0];
  for (const i of free(b)) if (after(b, i) > after(b, best)) best = i;
  return String(best + 1);
}
