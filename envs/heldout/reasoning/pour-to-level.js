// Held-out reasoning (variant of library sum-to-target): fill a tank to an exact level, pouring 1-5 litres at a time,
// within the fewest pours possible.
const MAX_POUR = 5; // difficulty knob (with the level range): the largest pour

export const spec = {
  name: 'pour-to-level',
  description: `Fill the tank to exactly the wanted level. Each turn pour a whole number of litres from 1 to ${MAX_POUR}. Answer with a number.`,
  hint: 'You have exactly as many pours as the level needs at best, so pour the most you may each time and let the last pour make up the rest.',
  maxTurns: 6,
};

export default class Env {
  reset(seed) {
    do this.level = kit.randInt(8, 28);
    while (this.level % MAX_POUR === 0);
    this.filled = 0;
    this.left = Math.ceil(this.level / MAX_POUR);
    return { observation: this.look() };
  }
  look() {
    return `Wanted ${this.level} litres, tank holds ${this.filled}. Pours left: ${this.left}.`;
  }
  step(action) {
    const n = kit.parseNumber(action);
    if (n === null || !Number.isInteger(n) || n < 1 || n > MAX_POUR) {
      return { observation: `Invalid pour: answer with a whole number from 1 to ${MAX_POUR}. Game over.`, reward: 0, terminated: true };
    }
    this.filled += n;
    this.left -= 1;
    if (this.filled === this.level) return { observation: 'The tank is exactly full!', reward: 1, terminated: true };
    if (this.filled > this.level) return { observation: 'The tank overflowed.', reward: 0, terminated: true };
    if (this.left === 0) return { observation: 'Out of pours; the tank is not full.', reward: 0, terminated: true };
    return { observation: this.look(), reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const [level, filled] = kit.parseNumbers(observation);
  return String(Math.min(MAX_POUR, level - filled));
}
