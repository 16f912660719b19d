// Game: sink one hidden ship of length three on a 7x7 grid with a limited number of shots.
const COLS = 'ABCDEFG';

export const spec = {
  name: 'battleship',
  description: 'One ship three cells long hides on a 7x7 grid (columns A-G, rows 1-7). Fire with a cell like "C4". Sink it (hit all three cells) within 18 shots.',
  hint: 'The ship always lies horizontally, inside one row. Fire at columns C and F of each row until you hit, then finish along that row.',
  maxTurns: 18,
};

export default class Env {
  reset(seed) {
    this.row = kit.randInt(0, 6);
    this.start = kit.randInt(0, 4);
    this.board = kit.range(7).map(() => Array(7).fill('.'));
    this.hits = 0;
    this.shots = 18;
    return { observation: this.show('Fire!') };
  }
  show(msg) {
    const rows = this.board.map((r, i) => `${i + 1} ${r.join(' ')}`);
    return kit.lines(`  ${COLS.split('').join(' ')}`, rows, `${msg} Shots left: ${this.shots}.`);
  }
  step(action) {
    const m = action.toUpperCase().match(/\b([A-G])\s*([1-7])\b/);
    this.shots -= 1;
    if (!m) return { observation: this.show('Not a cell (use e.g. C4).'), reward: 0, terminated: this.shots === 0 };
    const c = COLS.indexOf(m[1]), r = Number(m[2]) - 1;
    const hit = r === this.row && c >= this.start && c < this.start + 3;
    if (hit && this.board[r][c] !== 'X') this.hits += 1;
    if (this.board[r][c] === '.') this.board[r][c] = hit ? 'X' : 'o';
    if (this.hits === 3) return { observation: this.show('Hit. Ship sunk!'), reward: 1, terminated: true };
    return { observation: this.show(hit ? 'Hit!' : 'Miss.'), reward: 0, terminated: this.shots === 0 };
  }
}

export function oracle(observation) {
  const grid = observation.split('\n').slice(1, 8).map((l) => l.split(' ').slice(1));
  const cell = (r, c) => `${COLS[c]}${r + 1}`;
  const r = grid.findIndex((row) => row.includes('X'));
  if (r >= 0) {
    const xs = kit.range(7).filter((c) => grid[r][c] === 'X');
    const next = [xs[0] - 1, xs[xs.length - 1] + 1].find((c) => c >= 0 && c < 7 && grid[r][c] === '.');
    return cell(r, next);
  }
  for (let row = 0; row < 7; row++) for (const c of [2, 5]) if (grid[row][c] === '.') return cell(row, c);
  return 'A1';
}
