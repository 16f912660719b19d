// Reasoning: decode a word written in a Caesar cipher whose shift follows a hidden rule.
const WORDS = ['garden', 'silver', 'planet', 'window', 'castle', 'bridge', 'rocket', 'forest', 'candle', 'market', 'pencil', 'island',
  'dragon', 'jacket', 'mirror', 'orange', 'pirate', 'rabbit', 'saddle', 'tunnel', 'violin', 'wizard', 'anchor', 'basket', 'circle',
  'meadow', 'harbor', 'lantern', 'blanket', 'captain', 'diamond', 'feather', 'giraffe', 'harvest', 'journey', 'kitchen', 'library',
  'monster', 'pyramid', 'rainbow', 'sparrow', 'thunder', 'volcano', 'whisper'];

export const spec = {
  name: 'caesar-shift',
  description: 'A word was encrypted by shifting every letter forward in the alphabet by the same amount (z wraps to a). Answer with the original word. One try.',
  hint: 'The shift always equals the number of letters in the word, so move each letter back by the word length.',
  maxTurns: 1,
};

const shift = (word, k) => word.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + k + 26) % 26) + 97));

export default class Env {
  reset(seed) {
    this.word = kit.pick(WORDS);
    return { observation: `Encrypted word: ${shift(this.word, this.word.length)}. What is the original word?` };
  }
  step(action) {
    const ok = kit.words(action).includes(this.word);
    return { observation: ok ? 'Correct!' : `Wrong, it was ${this.word}.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const secret = observation.match(/word: ([a-z]+)\./)[1];
  return shift(secret, -secret.length);
}
