// Check module (docs/experiments/2026-12-05-copy-tests, not shipped): door-code whose oracle types the colour before its code ("amber 2373"), so copying the
// code is matching one's own last word in the list, not finding it by a label. Digits drawn per instance, 1-6.
const CODES = 4;
const TRIES = 3;
const COLOURS = ['red', 'blue', 'green', 'amber', 'white', 'black', 'grey', 'pink'];

export const spec = {
  name: 'door-code-echo',
  description: `One of the shown codes opens the door. Type the colour and its code. You have ${TRIES} tries.`,
  hint: 'Each try tells you whether the code was wrong.',
  maxTurns: TRIES,
};

export default class Env {
  reset(seed) {
    const digits = kit.randInt(1, 6);
    this.colours = kit.sample(COLOURS, CODES);
    this.codes = this.colours.map(() => kit.randInt(10 ** (digits - 1), 10 ** digits - 1));
    this.door = kit.randInt(0, CODES - 1);
    this.left = TRIES;
    const list = this.colours.map((c, i) => `${c} ${this.codes[i]}`).join(', ');
    return { observation: `Codes: ${list}. Type the code that opens the door.`, hint: `The door takes the ${this.colours[this.door]} code.` };
  }
  step(action) {
    this.left -= 1;
    if (kit.parseNumber(action) === this.codes[this.door]) return { observation: 'The door opens.', reward: 1, terminated: true };
    return { observation: `Wrong code. Tries left: ${this.left}.`, reward: 0, terminated: this.left === 0 };
  }
}

export function oracle(observation, history, hint) {
  const first = history.length > 0 ? history[0].observation : observation;
  const colour = hint ? kit.words(hint).find((w) => COLOURS.includes(w)) : undefined;
  const hinted = colour ? new RegExp(`\\b(${colour}) (\\d+)`).exec(first) : null;
  if (hinted) return `${hinted[1]} ${hinted[2]}`;
  const pairs = [...first.matchAll(/\b([a-z]+) (\d+)/g)];
  const [, c, n] = pairs[history.length];
  return `${c} ${n}`;
}
