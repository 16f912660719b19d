// Game (small-model family): walk along a line to a hidden mark and stop on it. Unhinted play hears warmer/colder;
// the instance's hint says where the mark is, so hinted play compares two numbers each turn. Knobs: LENGTH, SLACK.
const LENGTH = 10;
const SLACK = 3;

export const spec = {
  name: 'step-to-mark',
  description: `You stand on cell 0 of a line 0..${LENGTH}. Say right, left or stop. Stop on the hidden mark to win; after a move I say warmer or colder.`,
  hint: 'Warmer means you moved toward the mark.',
  maxTurns: LENGTH + SLACK,
};

export default class Env {
  reset(seed) {
    this.mark = kit.randInt(1, LENGTH);
    this.at = 0;
    return { observation: 'You are on cell 0. Say right, left or stop.', hint: `The mark is on cell ${this.mark}.` };
  }
  step(action) {
    const a = kit.norm(action);
    if (a === 'stop') {
      const won = this.at === this.mark;
      return { observation: won ? 'You stopped on the mark!' : `No mark on cell ${this.at}.`, reward: won ? 1 : 0, terminated: true };
    }
    if (a !== 'right' && a !== 'left') return { observation: 'Say right, left or stop. You lose.', reward: 0, terminated: true };
    const before = Math.abs(this.mark - this.at);
    this.at = Math.min(LENGTH, Math.max(0, this.at + (a === 'right' ? 1 : -1)));
    const clue = Math.abs(this.mark - this.at) < before ? 'Warmer' : 'Colder';
    return { observation: `${clue}. You are on cell ${this.at}.`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history, hint) {
  // Hinted: walk right to the hinted cell and stop there.
  const mark = hint ? kit.parseNumber(hint) : null;
  if (mark !== null) return history.length < mark ? 'right' : 'stop';
  // Unhinted: walk right while it gets warmer; the first "Colder" means the mark is one cell back: step left and stop.
  if (history.length > 0 && history[history.length - 1].action === 'left') return 'stop';
  if (observation.startsWith('Colder')) return 'left';
  return kit.parseNumber(observation.split('cell')[1] ?? '') === LENGTH ? 'stop' : 'right';
}
