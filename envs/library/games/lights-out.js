// Game: Lights Out on a 3x3 board; pressing a cell toggles it and its orthogonal neighbours.
const NEIGHBOURS = kit.range(9).map((i) => kit.range(9).filter((j) => j === i || (Math.abs(j - i) === 3) || (Math.abs(j - i) === 1 && Math.floor(j / 3) === Math.floor(i / 3))));
const press = (board, i) => board.map((v, j) => (NEIGHBOURS[i].includes(j) ? 1 - v : v));
const show = (board) => kit.grid([board.slice(0, 3), board.slice(3, 6), board.slice(6, 9)].map((r) => r.map((v) => (v ? '#' : '.'))));

export const spec = {
  name: 'lights-out',
  description: 'Turn every light off (# is on, . is off). Pressing a cell (1-9, row by row) toggles it and the cells directly above, below, left and right. Answer with a cell number. Limited presses.',
  hint: 'Order never matters and pressing a cell twice cancels out, so the answer is a set of distinct cells. Work out which set works before you press: a cell ends up toggled once for each pressed cell among itself and its neighbours.',
  maxTurns: 9,
};

const MASK = NEIGHBOURS.map((ns) => ns.reduce((m, j) => m | (1 << j), 0));
// The distinct cells whose presses clear the board (on 3x3 exactly one such set exists), trying all 512 sets as bit masks.
function solution(board) {
  const lit = board.reduce((m, v, i) => m | (v << i), 0);
  for (let set = 0; set < 512; set++) {
    let b = lit;
    for (let i = 0; i < 9; i++) if ((set >> i) & 1) b ^= MASK[i];
    if (b === 0) return kit.range(9).filter((i) => (set >> i) & 1);
  }
  return null;
}

export default class Env {
  reset(seed) {
    do this.board = kit.sample(kit.range(9), kit.randInt(3, 6)).reduce(press, Array(9).fill(0));
    while (solution(this.board).length < 3);
    this.left = solution(this.board).length + 1; // one spare press
    return { observation: `${show(this.board)}\nPresses left: ${this.left}.` };
  }
  step(action) {
    const cell = kit.parseNumber(action);
    if (!(cell >= 1 && cell <= 9 && Number.isInteger(cell))) return { observation: 'Press a cell from 1 to 9. You lose.', reward: 0, terminated: true };
    this.board = press(this.board, cell - 1);
    this.left -= 1;
    if (this.board.every((v) => v === 0)) return { observation: `${show(this.board)}\nAll lights off!`, reward: 1, terminated: true };
    if (this.left === 0) return { observation: `${show(this.board)}\nOut of presses.`, reward: 0, terminated: true };
    return { observation: `${show(this.board)}\nPresses left: ${this.left}.`, reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const board = observation.split('\n').slice(0, 3).join(' ').split(' ').map((c) => (c === '#' ? 1 : 0));
  return String(solution(board)[0] + 1);
}
