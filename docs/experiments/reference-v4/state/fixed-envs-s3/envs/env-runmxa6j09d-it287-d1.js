// Reasoning (small-model family): name the largest of a few numbers. The instance's hint gives the largest one's
// last digit, which turns the comparison into a lookup. Knobs: COUNT (numbers shown; 2 is easiest but a guess then
// wins half the time), LO/HI (their range).
const COUNT = 3;
const LO = 10;
const HI = 99;

export const spec = {
  name: 'max-pick',
  description: `Which of the ${COUNT} numbers is the largest? Answer with that number. One answer.`,
  hint: 'Compare the tens digits first.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    do this.nums = kit.range(COUNT).map(() => kit.randInt(LO, HI));
    while (new Set(this.nums.map((n) => n % 10)).size < COUNT); // distinct last digits: the hint singles one out
    this.max = Math.max(...this.nums);
    return { observation: `Numbers: ${this.nums.join(', ')}. Which is the largest?`, hint: `The largest number ends in the digit ${this.max % 10}.` };
  }
  step(action) {
    const ok = kit.parseNumber(action) === this.max;
    return { observation: ok ? 'Right.' : `Wrong: it was ${this.max}.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation, history, hint) {
  const nums = kit.parseNumbers(observation.split('Numbers:')[1] ?? '');
  // Hinted: the number that ends in the hinted digit (a lookup); else compare them all.
  const digit = hint ? kit.parseNumber(hint) : null;
  const hinted = nums.find((n) => n % 10 === digit);
  return String(hinted !== undefined ? hinted : Math.max(...nums));
}
