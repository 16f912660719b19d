// Held-out reasoning (new, easy): count how often one word appears in a short list.
const FRUIT = ['apple', 'pear', 'plum', 'fig', 'lime', 'kiwi'];
const LENGTH = 8; // difficulty knob: the length of the list

export const spec = {
  name: 'count-word',
  description: 'A basket list is shown. Answer with how many times the asked fruit appears in it, as a number. One try.',
  hint: 'Go through the list once, from left to right, and add one for every exact match of the asked fruit.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    const [target, ...others] = kit.sample(FRUIT, 4);
    this.target = target;
    this.count = kit.randInt(2, 5);
    const items = kit.range(LENGTH).map((i) => (i < this.count ? target : kit.pick(others)));
    return { observation: `Basket: ${kit.shuffle(items).join(' ')}. How many ${target}?` };
  }
  step(action) {
    const ok = kit.parseNumber(action) === this.count;
    return { observation: ok ? 'Correct.' : 'Wrong count.', reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const target = /How many ([a-z]+)\?/.exec(observation)[1];
  const list = observation.slice(observation.indexOf(':') + 1, observation.indexOf('.')).trim().split(' ');
  return String(list.filter((w) => w === target).length);
}
