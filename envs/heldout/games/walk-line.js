// Held-out game (new, easy): walk along a numbered track to a target square, one square left or right per turn.
const LENGTH = 12; // difficulty knob (with the slack): the length of the track
const SLACK = 1; // spare moves beyond the shortest walk

export const spec = {
  name: 'walk-line',
  description: `You stand on a track of squares 1 to ${LENGTH}. Reach the target square. Each turn answer left (one square down) or right (one square up).`,
  hint: 'If the target number is bigger than your square go right, if it is smaller go left; never turn back.',
  maxTurns: LENGTH,
};

export default class Env {
  reset(seed) {
    this.pos = kit.randInt(1, LENGTH);
    do this.target = kit.randInt(1, LENGTH);
    while (Math.abs(this.target - this.pos) < 3);
    this.left = Math.abs(this.target - this.pos) + SLACK;
    return { observation: this.look() };
  }
  look() {
    return `You are on square ${this.pos}. The target is square ${this.target}. Moves left: ${this.left}.`;
  }
  step(action) {
    const a = kit.norm(action);
    const d = a === 'left' ? -1 : a === 'right' ? 1 : 0;
    this.pos = Math.min(LENGTH, Math.max(1, this.pos + d));
    this.left -= 1;
    if (this.pos === this.target) return { observation: 'You reached the target!', reward: 1, terminated: true };
    if (this.left === 0) return { observation: 'Out of moves.', reward: 0, terminated: true };
    return { observation: `${d === 0 ? 'Answer left or right. ' : ''}${this.look()}`, reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const [pos, target] = kit.parseNumbers(observation);
  return target > pos ? 'right' : 'left';
}
