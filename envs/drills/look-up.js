// Drill (warm-start data, never a training family of the loop): look numbers up in a shown list or table, several
// times an episode. Every answer is a number copied from the observation, found by the word beside it, so each of
// the episode's turns is a supervised copy: the skill door-code (the code after a colour) and ticket-close (the id
// in an owner's row) need, drawn at every width from 1 to 6 digits and in both layouts. The hint changes nothing.
const WORDS = ['red', 'blue', 'green', 'amber', 'white', 'black', 'grey', 'pink', 'dana', 'lee', 'omar', 'kim', 'ravi', 'tess', 'ugo', 'vera'];
const ASKS = 4;

export const spec = {
  name: 'look-up',
  description: 'Each turn asks for the number beside a name. Type just the number.',
  hint: 'Every name is shown once, with its number.',
  maxTurns: ASKS,
};

export default class Env {
  reset(seed) {
    const n = kit.randInt(3, 8);
    const digits = kit.randInt(1, 6);
    this.names = kit.sample(WORDS, n);
    this.numbers = this.names.map(() => kit.randInt(digits === 1 ? 0 : 10 ** (digits - 1), 10 ** digits - 1));
    this.asks = kit.shuffle(kit.range(n)).slice(0, ASKS);
    this.turn = 0;
    this.total = 0;
    const shown = kit.chance(0.5)
      ? `Numbers: ${this.names.map((w, i) => `${w} ${this.numbers[i]}`).join(', ')}.`
      : kit.table(['id', 'name'], this.numbers.map((x, i) => [x, this.names[i]]));
    return { observation: `${shown}\n${this.ask()}` };
  }
  ask() {
    return `Which number is ${this.names[this.asks[this.turn]]}'s?`;
  }
  step(action) {
    const right = kit.parseNumber(action) === this.numbers[this.asks[this.turn]];
    const reward = right ? 1 / this.asks.length : 0;
    this.turn += 1;
    if (this.turn === this.asks.length) return { observation: right ? 'Right. Done.' : 'Wrong. Done.', reward, terminated: true };
    return { observation: `${right ? 'Right.' : 'Wrong.'} ${this.ask()}`, reward, terminated: false };
  }
}

export function oracle(observation, history) {
  const first = history.length > 0 ? history[0].observation : observation;
  const name = /Which number is (\w+)'s\?/.exec(observation)[1];
  const listed = new RegExp(`\\b${name} (\\d+)`).exec(first);
  if (listed) return listed[1];
  const row = first.split('\n').find((line) => line.endsWith(`| ${name}`));
  return String(kit.parseNumber(row));
}
