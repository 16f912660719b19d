// Game: hangman. Guess a hidden word letter by letter; seven wrong guesses end the game.
const WORDS = ['badger', 'beaver', 'bison', 'camel', 'cheetah', 'coyote', 'donkey', 'ferret', 'gecko', 'giraffe', 'hamster', 'hedgehog', 'jackal',
  'jaguar', 'koala', 'lemur', 'leopard', 'llama', 'lobster', 'meerkat', 'monkey', 'moose', 'otter', 'panda', 'panther', 'parrot', 'pelican',
  'penguin', 'rabbit', 'raccoon', 'salmon', 'shark', 'sloth', 'spider', 'squid', 'tiger', 'turtle', 'walrus', 'weasel', 'zebra'];

export const spec = {
  name: 'word-guess',
  description: 'Guess the hidden word. Answer with one letter, or with the whole word once you know it. Seven wrong guesses and you lose.',
  hint: 'Every word is the name of an animal. Once a few letters show, list the animals that fit the pattern and the wrong letters, then guess the word.',
  maxTurns: 26,
};

const pattern = (word, got) => word.split('').map((c) => (got.includes(c) ? c : '_')).join(' ');

export default class Env {
  reset(seed) {
    this.word = kit.pick(WORDS);
    this.got = [];
    this.wrong = [];
    return { observation: `Word: ${pattern(this.word, this.got)} (${this.word.length} letters). Wrong: none.` };
  }
  step(action) {
    const guess = kit.words(action)[0] || '?';
    if (guess === this.word) return { observation: `Yes, ${this.word}! You win.`, reward: 1, terminated: true };
    if (guess.length === 1 && this.word.includes(guess)) this.got.push(guess);
    else this.wrong.push(guess.slice(0, 12));
    const shown = pattern(this.word, this.got);
    if (!shown.includes('_')) return { observation: `Word: ${shown}. You win!`, reward: 1, terminated: true };
    if (this.wrong.length >= 7) return { observation: `Too many wrong guesses. It was ${this.word}.`, reward: 0, terminated: true };
    return { observation: `Word: ${shown} (${this.word.length} letters). Wrong: ${this.wrong.join(', ')}.`, reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const shown = observation.match(/Word: ([a-z_ ]+) \(/)[1].split(' ');
  const wrong = observation.slice(observation.indexOf('Wrong:') + 7).replace('none.', '').split(/[,. ]+/).filter(Boolean);
  const fits = WORDS.filter((w) => w.length === shown.length && !wrong.some((x) => w.includes(x)) &&
    w.split('').every((c, i) => (shown[i] === '_' ? !shown.includes(c) : shown[i] === c)));
  if (fits.length === 1) return fits[0];
  const counts = {};
  for (const w of fits) for (const c of new Set(w)) if (!shown.includes(c)) counts[c] = (counts[c] || 0) + 1;
  return Object.keys(counts).sort((a, b) => counts[b] - counts[a] || (a < b ? -1 : 1))[0];
}
