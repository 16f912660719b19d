// Game: Towers of Hanoi with four or five disks and a tight move budget.
const PEGS = 'ABC';

export const spec = {
  name: 'towers-of-hanoi',
  description: 'Move the whole tower to the target peg, one disk at a time, never putting a larger disk on a smaller one. Answer with two peg letters, e.g. "A C" moves the top disk of A onto C.',
  hint: 'To move a tower of n disks: move the top n-1 to the spare peg, move the largest disk, then move the n-1 back on top of it. Equivalently, move the smallest disk every other turn, always around the pegs in the same direction.',
  maxTurns: 40,
};

const show = (pegs) => PEGS.split('').map((p, i) => `${p}: ${pegs[i].join(' ') || '-'}`).join(' | ');

export default class Env {
  reset(seed) {
    this.n = kit.randInt(4, 5);
    const [from, to] = kit.sample([0, 1, 2], 2);
    this.target = to;
    this.pegs = [[], [], []];
    this.pegs[from] = kit.range(this.n).map((i) => this.n - i); // bottom first
    this.left = 2 ** this.n - 1 + 4;
    return { observation: this.describe() };
  }
  describe() {
    return `${show(this.pegs)} (bottom to top). Target peg: ${PEGS[this.target]}. Moves left: ${this.left}.`;
  }
  step(action) {
    const [a, b] = (action.toUpperCase().match(/[ABC]/g) || []).map((p) => PEGS.indexOf(p));
    const src = this.pegs[a], dst = this.pegs[b];
    if (a === undefined || b === undefined || a === b || !src.length || (dst.length && dst[dst.length - 1] < src[src.length - 1])) {
      return { observation: 'Illegal move. You lose.', reward: 0, terminated: true };
    }
    dst.push(src.pop());
    this.left -= 1;
    if (this.pegs[this.target].length === this.n) return { observation: `${show(this.pegs)}. Tower moved!`, reward: 1, terminated: true };
    if (this.left === 0) return { observation: `${show(this.pegs)}. Out of moves.`, reward: 0, terminated: true };
    return { observation: this.describe(), reward: 0, terminated: false };
  }
}

// The next move that brings disks 1..k onto peg `to`, or null when they are already there.
function next(peg, k, to) {
  if (k === 0) return null;
  if (peg[k] === to) return next(peg, k - 1, to);
  return next(peg, k - 1, 3 - peg[k] - to) || [peg[k], to];
}

export function oracle(observation) {
  const peg = [];
  observation.split(' (')[0].split('|').forEach((part, i) => kit.parseNumbers(part).forEach((d) => { peg[d] = i; }));
  const to = PEGS.indexOf(observation.match(/Target peg: ([ABC])/)[1]);
  const [a, b] = next(peg, peg.length - 1, to);
  return `${PEGS[a]} ${PEGS[b]}`;
}
