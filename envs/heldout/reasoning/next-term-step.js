// Held-out reasoning (variant of library sequence-next): the next term of an arithmetic progression.
const SHOWN = 4; // difficulty knob: how many terms are shown

export const spec = {
  name: 'next-term-step',
  description: 'A list of numbers grows by the same step each time. Answer with the number that comes next. One try.',
  hint: 'Subtract any term from the one after it to get the step, then add that step to the last term.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    const start = kit.randInt(1, 30), step = kit.randInt(2, 12);
    this.terms = kit.range(SHOWN).map((i) => start + i * step);
    this.next = start + SHOWN * step;
    return { observation: `Sequence: ${this.terms.join(', ')}, ... What comes next?` };
  }
  step(action) {
    const ok = kit.parseNumber(action) === this.next;
    return { observation: ok ? 'Correct.' : `Wrong; it was ${this.next}.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const t = kit.parseNumbers(observation);
  return String(t[t.length - 1] + (t[1] - t[0]));
}
