// Held-out tool use (new, easy-medium): look up a person's phone number, then answer with it (copy from the result).
const PEOPLE = ['Maya', 'Omar', 'Ines', 'Theo', 'Yuki', 'Lars', 'Nia', 'Ravi'];
const SIGS = 'phone({"name": string}), answer({"phone": string})';

export const spec = {
  name: 'contact-lookup',
  description: 'Find the phone number of the person asked for with the phone tool, then answer with it. Wrong answers end the task.',
  hint: 'Call phone with the asked person\'s name first; then call answer with the number exactly as the lookup printed it.',
  maxTurns: 4,
};

export default class Env {
  reset(seed) {
    this.book = Object.create(null); // no prototype: a looked-up name such as "constructor" finds nothing
    for (const p of PEOPLE) this.book[p] = `555-${kit.randInt(1000, 9999)}`;
    this.who = kit.pick(PEOPLE);
    return { observation: `Tools: ${SIGS}. Task: what is ${this.who}'s phone number?` };
  }
  step(action) {
    const c = kit.parseCall(action);
    const args = (c && c.args) || {};
    if (c && c.name === 'phone') {
      const num = this.book[args.name];
      return { observation: num ? `${args.name}: ${num}` : 'No such contact.', reward: 0, terminated: false };
    }
    if (c && c.name === 'answer') {
      const ok = args.phone === this.book[this.who];
      return { observation: ok ? 'Correct.' : 'Wrong number.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: `Unknown call. Tools: ${SIGS}`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  if (history.length === 0) return `phone({"name": "${/what is (\w+)'s/.exec(observation)[1]}"})`;
  return `answer({"phone": "${/555-\d+/.exec(observation)[0]}"})`;
}
