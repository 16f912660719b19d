// Held-out game (variant of library maze-walk): an open grid without walls; walk to a target cell in the fewest moves.
const SIZE = 5; // difficulty knob (with SLACK): the grid size
const SLACK = 1;
const MOVES = { north: [-1, 0], south: [1, 0], east: [0, 1], west: [0, -1] };

export const spec = {
  name: 'grid-walk',
  description: `Walk on a ${SIZE}x${SIZE} grid (row 1 is the top, column 1 the left) to the target cell. Answer north, south, east or west each turn. Moves are limited.`,
  hint: 'North lowers your row and south raises it; west lowers your column and east raises it. Close the row gap, then the column gap.',
  maxTurns: 2 * SIZE,
};

export default class Env {
  reset(seed) {
    do {
      this.pos = [kit.randInt(1, SIZE), kit.randInt(1, SIZE)];
      this.goal = [kit.randInt(1, SIZE), kit.randInt(1, SIZE)];
    } while (this.dist() < 3);
    this.left = this.dist() + SLACK;
    return { observation: this.look() };
  }
  dist() {
    return Math.abs(this.pos[0] - this.goal[0]) + Math.abs(this.pos[1] - this.goal[1]);
  }
  look() {
    return `You are at row ${this.pos[0]}, column ${this.pos[1]}. Target: row ${this.goal[0]}, column ${this.goal[1]}. Moves left: ${this.left}.`;
  }
  step(action) {
    const d = MOVES[kit.norm(action)] || [0, 0];
    this.pos = [Math.min(SIZE, Math.max(1, this.pos[0] + d[0])), Math.min(SIZE, Math.max(1, this.pos[1] + d[1]))];
    this.left -= 1;
    if (this.dist() === 0) return { observation: 'You reached the target!', reward: 1, terminated: true };
    if (this.left === 0) return { observation: 'Out of moves.', reward: 0, terminated: true };
    return { observation: this.look(), reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const [r, c, gr, gc] = kit.parseNumbers(observation);
  if (r !== gr) return r > gr ? 'north' : 'south';
  return c > gc ? 'west' : 'east';
}
