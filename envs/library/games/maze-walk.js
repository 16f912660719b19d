// Game: walk out of a maze you only see one cell at a time (a perfect maze carved by a random depth-first search).
const DIRS = { north: [-1, 0], east: [0, 1], south: [1, 0], west: [0, -1] };
const ORDER = ['north', 'east', 'south', 'west'];
const ROWS = 6, COLS = 6;

export const spec = {
  name: 'maze-walk',
  description: `Find the exit of a ${ROWS}x${COLS} maze. You only see which ways are open from your cell. Answer north, east, south or west.`,
  hint: 'The maze has no loops, so the right-hand rule always works: at every cell turn right if you can, else go straight, else turn left, else go back. Never improvise.',
  maxTurns: 64,
};

export default class Env {
  reset(seed) {
    this.open = {}; // "r,c" -> set of open directions
    const seen = new Set(['0,0']), stack = [[0, 0]];
    for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) this.open[`${r},${c}`] = [];
    while (stack.length) {
      const [r, c] = stack[stack.length - 1];
      const inside = (nr, nc) => nr >= 0 && nr < ROWS && nc >= 0 && nc < COLS;
      const next = ORDER.filter((d) => inside(r + DIRS[d][0], c + DIRS[d][1]) && !seen.has(`${r + DIRS[d][0]},${c + DIRS[d][1]}`));
      if (!next.length) { stack.pop(); continue; }
      const d = kit.pick(next), nr = r + DIRS[d][0], nc = c + DIRS[d][1];
      this.open[`${r},${c}`].push(d);
      this.open[`${nr},${nc}`].push(ORDER[(ORDER.indexOf(d) + 2) % 4]);
      seen.add(`${nr},${nc}`);
      stack.push([nr, nc]);
    }
    this.pos = [0, 0];
    this.exit = [ROWS - 1, COLS - 1];
    return { observation: this.look() };
  }
  look() {
    const open = ORDER.filter((d) => this.open[this.pos.join(',')].includes(d));
    return `You are at row ${this.pos[0] + 1}, column ${this.pos[1] + 1}. The exit is at row ${this.exit[0] + 1}, column ${this.exit[1] + 1}. Open: ${open.join(', ')}.`;
  }
  step(action) {
    const d = ORDER.find((x) => kit.norm(action).startsWith(x));
    if (!d || !this.open[this.pos.join(',')].includes(d)) return { observation: `Bump! ${this.look()}`, reward: 0, terminated: false };
    this.pos = [this.pos[0] + DIRS[d][0], this.pos[1] + DIRS[d][1]];
    if (this.pos.join(',') === this.exit.join(',')) return { observation: 'You found the exit!', reward: 1, terminated: true };
    return { observation: this.look(), reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const open = observation.slice(observation.indexOf('Open:') + 6).split(/[,. ]+/).filter(Boolean);
  const heading = history.length ? ORDER.indexOf(history[history.length - 1].action) : 1;
  return [1, 0, 3, 2].map((turn) => ORDER[(heading + turn) % 4]).find((d) => open.includes(d));
}
