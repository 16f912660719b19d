// Reasoning (small-model family): copy the right code from a shown list. The instance's hint names the door's
// colour; without it the agent must try codes in turn. Knobs: CODES (shown), TRIES, DIGITS (of each
// code).
const CODES = 4;
const TRIES = 3;
const DIGITS = 4;
const COLOURS = ['red', 'blue', 'green', 'amber', 'white', 'black', 'grey', 'pink'];

export const spec = {
  name: 'door-code',
  description: `One of the shown codes opens the door. Type a code (just the number). You have ${TRIES} tries.`,
  hint: 'Each try tells you whether the code was wrong.',
  maxTurns: TRIES,
};

export default class Env {
  reset(seed) {
    this.colours = kit.sample(COLOURS, CODES);
    this.codes = this.colours.map(() => kit.randInt(10 ** (DIGITS - 1), 10 ** DIGITS - 1));
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
  // Hinted: the hint names the door's colour, so type that colour's code at once; else try the codes in turn.
  const colour = hint ? kit.words(hint).find((w) => COLOURS.includes(w)) : undefined;
  const hinted = colour ? new RegExp(`\\b${colour} (\\d+)`).exec(first) : null;
  return hinted ? hinted[1] : String(kit.parseNumbers(first)[history.length]);
}
