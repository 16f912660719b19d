// Held-out reasoning (new, easiest): repeat the code word the message names among a few distractor words.
const WORDS = ['amber', 'basil', 'cedar', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kestrel',
  'lantern', 'meadow', 'nectar', 'orchid', 'pepper', 'quartz', 'raven', 'saffron', 'tundra', 'umber', 'violet', 'willow', 'zephyr'];
const DISTRACTORS = 3; // difficulty knob: how many other words the message shows

export const spec = {
  name: 'echo-code',
  description: 'A message lists several words and says which one is the code word. Reply with the code word only. One try.',
  hint: 'Ignore the other words: the code word is the one written right after the phrase "the code word is".',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    const chosen = kit.sample(WORDS, DISTRACTORS + 1);
    this.code = chosen[0];
    return { observation: `Words: ${kit.shuffle(chosen).join(', ')}. Of these, the code word is ${this.code}. Reply with it.` };
  }
  step(action) {
    const ok = kit.norm(action) === this.code;
    return { observation: ok ? 'Accepted.' : 'That is not the code word.', reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  return /the code word is ([a-z]+)/.exec(observation)[1];
}
