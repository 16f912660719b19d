// Held-out game (new, easiest): press the arrow the screen shows, several times in a row; one miss ends the dance.
const ARROWS = ['up', 'down', 'left', 'right'];
const LENGTH = 4; // difficulty knob: how many arrows in a row

export const spec = {
  name: 'arrow-dance',
  description: `Each turn the screen shows one arrow. Answer with that direction (up, down, left or right). Match ${LENGTH} in a row; one miss ends the dance.`,
  hint: 'Every turn, answer with exactly the direction word written after "Now press".',
  maxTurns: LENGTH,
};

export default class Env {
  reset(seed) {
    this.seq = kit.range(LENGTH).map(() => kit.pick(ARROWS));
    this.at = 0;
    return { observation: `Arrow 1 of ${LENGTH}. Now press ${this.seq[0]}.` };
  }
  step(action) {
    if (kit.norm(action) !== this.seq[this.at]) return { observation: 'Missed the beat. The dance is over.', reward: 0, terminated: true };
    this.at += 1;
    if (this.at === LENGTH) return { observation: 'Perfect dance!', reward: 1, terminated: true };
    return { observation: `Good. Arrow ${this.at + 1} of ${LENGTH}. Now press ${this.seq[this.at]}.`, reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  return /Now press (\w+)\./.exec(observation)[1];
}
