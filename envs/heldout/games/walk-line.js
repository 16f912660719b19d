// Held-out game (new, easy): walk along a numbered track to a target square, one square left or right per turn, and
// stop on it (without the stop, saying "right" every turn won whenever the target lay to the right: half the seeds).
const LENGTH = 12; // difficulty knob (with the slack): the length of the track
const SLACK = 1; // spare moves beyond the shortest walk

export const spec = {
  name: 'walk-line',
  description: `You stand on a track of squares 1 to ${LENGTH}. Each turn answer left (one square down), right (one square up) or stop. Stop on the target square to win.`,
  hint: 'If the target number is bigger than your square go right, if it is smaller go left; never turn back, and say stop once you stand on it.',
  maxTurns: LENGTH,
};

export default class Env {
  reset(seed) {
    this.pos = kit.randInt(1, LENGTH);
    do this.target = kit.randInt(1, LENGTH);
    while (Math.abs(this.target - this.pos) < 3);
    this.left = Math.abs(this.target - this.pos) + 1 + SLACK;
    return { observation: this.look() };
  }
  look() {
    return `You are on square ${this.pos}. The target is square ${this.target}. Moves left: ${this.left}.`;
  }
  step(action) {
    const a = kit.norm(action);
    if (a === 'stop') {
      const won = this.pos === this.target;
      return { observation: won ? 'You stopped on the target!' : `Square ${this.pos} is not the target.`, reward: won ? 1 : 0, terminated: true };
    }
    const d = a === 'left' ? -1 : a === 'right' ? 1 : 0;
    this.pos = Math.min(LENGTH, Math.max(1, this.pos + d));
    this.left -= 1;
    if (this.left === 0) return { observation: 'Out of moves.', reward: 0, terminated: true };
    return { observation: `${d === 0 ? 'Answer left, right or stop. ' : ''}${this.look()}`, reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const [pos, target] = kit.parseNumbers(observation);
  return target > pos ? 'right' : target < pos ? 'left' : 'stop';
}
