// Tool use: query three calendars in different time zones and book the earliest hour when everyone is free.
const PEOPLE = ['ana', 'bram', 'chen', 'dara', 'emil'];
const TOOLS = 'busy({"person": name}), book({"start": "HH:00"})';

export const spec = {
  name: 'meeting-scheduler',
  description: 'Book a one-hour meeting (times in UTC, whole hours from 09:00 to 16:00) at the earliest hour when every attendee is free.',
  hint: 'busy() reports hours in the person\'s own time zone, shown as UTC+n or UTC-n; subtract n to get UTC before comparing calendars. Query everyone before booking: you get one booking only.',
  maxTurns: 8,
};

export default class Env {
  reset(seed) {
    const firstFree = (busy) => kit.range(9, 17).find((h) => this.people.every((p) => !busy(p).includes(h)));
    do {
      this.people = kit.sample(PEOPLE, 3);
      this.zone = {};
      this.busyUtc = {};
      for (const p of this.people) {
        this.zone[p] = kit.pick([0, 1, 2, -1, -3]);
        this.busyUtc[p] = kit.sample(kit.range(9, 17), kit.randInt(3, 5));
      }
      this.best = firstFree((p) => this.busyUtc[p]);
      // Reading local hours as UTC must give a wrong hour, so the zones matter.
    } while (this.best === undefined || firstFree((p) => this.busyUtc[p].map((h) => h + this.zone[p])) === this.best);
    return { observation: kit.lines(`Attendees: ${this.people.join(', ')}.`, `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const args = call.args || {};
    if (call.name === 'busy' && this.people.includes(args.person)) {
      const z = this.zone[args.person];
      const local = this.busyUtc[args.person].map((h) => h + z).sort((a, b) => a - b);
      const tz = z === 0 ? 'UTC' : `UTC${z > 0 ? '+' : ''}${z}`;
      return { observation: `${args.person} is busy at ${local.map((h) => `${h}:00`).join(', ')} (${tz}).`, reward: 0, terminated: false };
    }
    if (call.name === 'book') {
      const ok = kit.parseNumber(String(args.start)) === this.best;
      return { observation: ok ? 'Booked. Everyone can attend.' : 'Booked, but that was not the earliest hour everyone is free.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: `Unknown call or person. Tools: ${TOOLS}`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const first = history.length ? history[0].observation : observation;
  const people = kit.words(first.split('\n')[0]).slice(1);
  if (history.length < people.length) return `busy({"person": "${people[history.length]}"})`;
  const replies = history.slice(1).map((h) => h.observation).concat(observation);
  const taken = new Set();
  for (const r of replies) {
    const z = Number((r.match(/UTC([+-]\d+)/) || [0, 0])[1]);
    for (const h of kit.parseNumbers(r.slice(0, r.indexOf('('))).filter((n) => n > 0)) taken.add(h - z);
  }
  const hour = kit.range(9, 17).find((h) => !taken.has(h));
  return `book({"start": "${hour}:00"})`;
}
