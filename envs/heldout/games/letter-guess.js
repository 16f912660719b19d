// Held-out game (variant of library word-guess): guess a hidden word letter by letter with six misses allowed.
const WORDS = ['apple', 'banana', 'cherry', 'grape', 'lemon', 'mango', 'melon', 'olive', 'peach', 'guava', 'papaya', 'plum',
  'kiwi', 'lime', 'orange', 'quince', 'raisin', 'date', 'apricot', 'fig', 'pear', 'berry', 'cocoa', 'coconut'];
const MISSES = 6; // difficulty knob: misses allowed

export const spec = {
  name: 'letter-guess',
  description: `Guess the hidden word one letter at a time. Answer with a single letter. ${MISSES} wrong letters and you lose.`,
  hint: 'Every hidden word is the name of a fruit. Think of the fruits whose length and known letters fit, and guess the letter most of them share.',
  maxTurns: 26,
};

const shown = (word, guessed) => word.split('').map((ch) => (guessed.includes(ch) ? ch : '_')).join(' ');

export default class Env {
  reset(seed) {
    this.word = kit.pick(WORDS);
    this.guessed = [];
    this.misses = 0;
    return { observation: this.look() };
  }
  look() {
    return `Word: ${shown(this.word, this.guessed)}. Guessed: ${this.guessed.join(' ') || 'none'}. Misses left: ${MISSES - this.misses}.`;
  }
  step(action) {
    const a = kit.norm(action);
    if (!/^[a-z]$/.test(a) || this.guessed.includes(a)) {
      this.misses += 1;
    } else {
      this.guessed.push(a);
      if (!this.word.includes(a)) this.misses += 1;
    }
    if (this.word.split('').every((ch) => this.guessed.includes(ch))) return { observation: `The word was ${this.word}. You win!`, reward: 1, terminated: true };
    if (this.misses >= MISSES) return { observation: 'Out of misses. You lose.', reward: 0, terminated: true };
    return { observation: this.look(), reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const pattern = /Word: ([a-z_ ]+)\./.exec(observation)[1].split(' ');
  const g = /Guessed: ([a-z ]+)\./.exec(observation)[1];
  const guessed = g === 'none' ? [] : g.split(' ');
  const fits = WORDS.filter((w) => w.length === pattern.length
    && w.split('').every((ch, i) => (pattern[i] === '_' ? !guessed.includes(ch) : pattern[i] === ch)));
  const counts = {};
  for (const w of fits) for (const ch of new Set(w)) if (!guessed.includes(ch)) counts[ch] = (counts[ch] || 0) + 1;
  return Object.keys(counts).sort((a, b) => counts[b] - counts[a] || (a < b ? -1 : 1))[0] || 'e';
}
