// Reasoning (constraints): complete a 4x4 sudoku with a unique solution.
export const spec = {
  name: 'mini-sudoku',
  description: 'Fill the 4x4 grid so every row, column and 2x2 box holds 1, 2, 3 and 4 once each. Answer with the full grid: sixteen digits, row by row.',
  hint: 'Repeat: find a blank cell whose row, column and box together already show three different digits, and write the fourth. When none is left, look for a digit that fits in only one cell of some row, column or box.',
  maxTurns: 1,
};

const box = (i) => ((i >> 3) << 1) | ((i % 4) >> 1);
const PEERS = kit.range(16).map((i) => kit.range(16).filter((j) => j !== i && (j >> 2 === i >> 2 || j % 4 === i % 4 || box(j) === box(i))));

// All completions of g (0 = blank), stopping after `limit`.
function solve(g, limit) {
  const i = g.indexOf(0);
  if (i < 0) return [g];
  const out = [];
  for (let d = 1; d <= 4 && out.length < limit; d++) {
    if (PEERS[i].some((j) => g[j] === d)) continue;
    const next = g.slice(); next[i] = d;
    out.push(...solve(next, limit - out.length));
  }
  return out;
}

export default class Env {
  reset(seed) {
    this.solution = randomGrid();
    const g = this.solution.slice();
    for (const i of kit.shuffle(kit.range(16))) {
      const d = g[i]; g[i] = 0;
      if (solve(g, 2).length > 1) g[i] = d; // keep the puzzle unique
    }
    const rows = kit.range(4).map((r) => g.slice(r * 4, r * 4 + 4).map((d) => d || '.').join(' '));
    return { observation: kit.lines(rows, 'Answer with all sixteen digits, row by row.') };
  }
  step(action) {
    const digits = (action.match(/[1-4]/g) || []).map(Number);
    const ok = digits.length === 16 && digits.every((d, i) => d === this.solution[i]);
    return { observation: ok ? 'Correct!' : `Wrong. Solution: ${this.solution.join('')}.`, reward: ok ? 1 : 0, terminated: true };
  }
}

// A random valid grid: relabel the digits of a fixed grid and permute rows inside bands and the bands themselves.
function randomGrid() {
  const base = [[0, 1, 2, 3], [2, 3, 0, 1], [1, 0, 3, 2], [3, 2, 1, 0]];
  const digit = kit.shuffle([1, 2, 3, 4]);
  const band = kit.shuffle([0, 1]), col = kit.shuffle([0, 1]);
  const rows = [].concat(...band.map((b) => kit.shuffle([b * 2, b * 2 + 1])));
  const cols = [].concat(...col.map((s) => kit.shuffle([s * 2, s * 2 + 1])));
  return [].concat(...rows.map((r) => cols.map((c) => digit[base[r][c]])));
}

export function oracle(observation) {
  const cells = observation.split('\n').slice(0, 4).join(' ').split(' ').map((c) => (c === '.' ? 0 : Number(c)));
  return solve(cells, 1)[0].join('');
}
