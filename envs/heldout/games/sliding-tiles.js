// Held-out game (new, hard): solve a 2x3 sliding puzzle within a few moves of the optimum.
const GOAL = '12345_', W = 3;
const NEIGHBOURS = [[1, 3], [0, 2, 4], [1, 5], [0, 4], [1, 3, 5], [2, 4]];
const swap = (s, i, j) => (i > j ? swap(s, j, i) : s.slice(0, i) + s[j] + s.slice(i + 1, j) + s[i] + s.slice(j + 1));
// Fewest moves to the goal from every reachable arrangement (BFS at module load; 360 states).
const DIST = new Map([[GOAL, 0]]);
for (let queue = [GOAL], at = 0; at < queue.length; at++) {
  const s = queue[at], gap = s.indexOf('_');
  for (const j of NEIGHBOURS[gap]) { const t = swap(s, gap, j); if (!DIST.has(t)) (DIST.set(t, DIST.get(s) + 1), queue.push(t)); }
}
const SCRAMBLE = 14, SLACK = 2; // difficulty knobs: random moves from the goal, spare moves beyond the optimum

export const spec = {
  name: 'sliding-tiles',
  description: 'Slide the tiles of a 2x3 puzzle into the order "1 2 3 / 4 5 _" (the gap last). Each turn answer with the number of a tile next to the gap to slide it in. Moves are limited.',
  hint: 'The budget is only two moves above the fewest possible. Never slide back the tile you just moved, and look a few moves ahead: count how far each tile is from its home cell and prefer moves that shrink the total.',
  maxTurns: 24,
};

const show = (s) => `${s.slice(0, W).split('').join(' ')} / ${s.slice(W).split('').join(' ')}`;

export default class Env {
  reset(seed) {
    do {
      this.s = GOAL;
      for (let k = 0; k < SCRAMBLE; k++) { const gap = this.s.indexOf('_'); this.s = swap(this.s, gap, kit.pick(NEIGHBOURS[gap])); }
    } while (DIST.get(this.s) < 4);
    this.left = DIST.get(this.s) + SLACK;
    return { observation: this.look() };
  }
  look() {
    return `Board: ${show(this.s)}. Moves left: ${this.left}.`;
  }
  step(action) {
    const t = kit.parseNumber(action), gap = this.s.indexOf('_');
    const at = this.s.indexOf(String(t));
    this.left -= 1;
    if (Number.isInteger(t) && at >= 0 && NEIGHBOURS[gap].includes(at)) this.s = swap(this.s, gap, at);
    if (this.s === GOAL) return { observation: 'Solved!', reward: 1, terminated: true };
    if (this.left === 0) return { observation: `Board: ${show(this.s)}. Out of moves.`, reward: 0, terminated: true };
    return { observation: this.look(), reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const s = /Board: (.+?)\. Moves/.exec(observation)[1].replace(/[ /]/g, '');
  const gap = s.indexOf('_');
  const j = NEIGHBOURS[gap].find((k) => DIST.get(swap(s, gap, k)) === DIST.get(s) - 1);
  return s[j];
}
