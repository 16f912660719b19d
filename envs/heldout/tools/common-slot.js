// Held-out tool use (variant of library meeting-scheduler): the earliest hour at which everyone invited is free.
const PEOPLE = ['Ana', 'Bram', 'Chen', 'Dara', 'Eli'];
const HOURS = kit.range(9, 18);
const INVITED = 3; // difficulty knob: how many calendars must be combined
const SIGS = 'free({"person": string}), book({"hour": number})';

export const spec = {
  name: 'common-slot',
  description: 'Book a one-hour meeting for the invited people at the earliest hour all of them are free. free lists a person\'s free hours (24-hour clock). A wrong booking ends the task.',
  hint: 'Ask for every invited person\'s free hours, keep only the hours that appear in all of the lists, and book the smallest of them.',
  maxTurns: 6,
};

export default class Env {
  reset(seed) {
    this.invited = kit.sample(PEOPLE, INVITED);
    this.best = kit.pick(HOURS.slice(1));
    this.free = Object.create(null); // no prototype: a looked-up name such as "constructor" finds nothing
    for (const p of PEOPLE) this.free[p] = HOURS.filter((h) => h === this.best || (h > this.best ? kit.chance(0.5) : kit.chance(0.6)));
    // No earlier hour may be common to all the invited.
    for (const h of HOURS.filter((x) => x < this.best)) {
      if (this.invited.every((p) => this.free[p].includes(h))) {
        const p = kit.pick(this.invited);
        this.free[p] = this.free[p].filter((x) => x !== h);
      }
    }
    return { observation: `Tools: ${SIGS}. Task: meet with ${this.invited.join(', ')} as early as possible.` };
  }
  step(action) {
    const c = kit.parseCall(action);
    const args = (c && c.args) || {};
    if (c && c.name === 'free') {
      const f = this.free[args.person];
      return { observation: f ? `${args.person} is free at: ${f.join(', ')}.` : 'No such person.', reward: 0, terminated: false };
    }
    if (c && c.name === 'book') {
      const ok = Number(args.hour) === this.best;
      return { observation: ok ? 'Booked: everyone can come.' : 'Not the earliest common hour.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: `Unknown call. Tools: ${SIGS}`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const invited = /meet with (.+) as early/.exec(history.length ? history[0].observation : observation)[1].split(', ');
  if (history.length < invited.length) return `free({"person": "${invited[history.length]}"})`;
  const lists = history.slice(1).map((h) => h.observation).concat(observation).map((o) => kit.parseNumbers(o.slice(o.indexOf(':'))));
  return `book({"hour": ${HOURS.find((h) => lists.every((l) => l.includes(h)))}})`;
}
