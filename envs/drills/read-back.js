// Drill (warm-start data, never a training family of the loop): type a shown list back exactly. Every token of the
// answer after its first is the token that followed the same token in the observation, so the whole answer is
// supervised copying, where a look-up or a door-code answer has a few tokens: the in-context copy those modules need,
// at every width from 1 to 6 digits, with and without a word before each number. The hint changes nothing.
const WORDS = ['red', 'blue', 'green', 'amber', 'white', 'black', 'grey', 'pink', 'dana', 'lee', 'omar', 'kim', 'ravi', 'tess', 'ugo', 'vera'];

export const spec = {
  name: 'read-back',
  description: 'Type the shown list back, exactly as it is written.',
  hint: 'Copy it in the same order.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    const n = kit.randInt(3, 8);
    const digits = kit.randInt(1, 6);
    const numbers = kit.range(n).map(() => kit.randInt(digits === 1 ? 0 : 10 ** (digits - 1), 10 ** digits - 1));
    const names = kit.sample(WORDS, n);
    this.list = kit.chance(0.5) ? names.map((w, i) => `${w} ${numbers[i]}`).join(', ') : numbers.join(' ');
    return { observation: `List: ${this.list}\nType it back.` };
  }
  step(action) {
    const right = kit.norm(action) === kit.norm(this.list);
    return { observation: right ? 'Exactly right.' : 'Not the same list.', reward: right ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  return /^List: (.*)$/m.exec(observation)[1];
}
