// Held-out tool use (variant of library orders-report): count delivered parcels from tracking lookups.
const STATES = ['delivered', 'out for delivery', 'in transit', 'delivered', 'returned to sender', 'awaiting pickup'];
const SIGS = 'track({"id": string}), answer({"delivered": number})';

export const spec = {
  name: 'parcel-count',
  description: 'Track each listed parcel and answer with how many have been delivered. A wrong count ends the task.',
  hint: 'Only the status "delivered" counts: "out for delivery" and "awaiting pickup" are not delivered yet. Track every id on the list once.',
  maxTurns: 7,
};

export default class Env {
  reset(seed) {
    const n = kit.randInt(3, 5);
    this.ids = kit.sample(kit.range(100, 1000), n).map((x) => `P${x}`);
    this.state = Object.create(null); // no prototype: a looked-up name such as "constructor" finds nothing
    for (const id of this.ids) this.state[id] = kit.pick(STATES);
    this.count = this.ids.filter((id) => this.state[id] === 'delivered').length;
    return { observation: `Tools: ${SIGS}. Parcels: ${this.ids.join(', ')}. Task: how many are delivered?` };
  }
  step(action) {
    const c = kit.parseCall(action);
    const args = (c && c.args) || {};
    if (c && c.name === 'track') {
      const s = this.state[args.id];
      return { observation: s ? `${args.id}: ${s}.` : 'Unknown parcel.', reward: 0, terminated: false };
    }
    if (c && c.name === 'answer') {
      const ok = Number(args.delivered) === this.count;
      return { observation: ok ? 'Correct.' : 'Wrong count.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: `Unknown call. Tools: ${SIGS}`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const ids = (history.length ? history[0].observation : observation).match(/P\d{3}/g);
  if (history.length < ids.length) return `track({"id": "${ids[history.length]}"})`;
  const seen = history.slice(1).map((h) => h.observation).concat(observation);
  return `answer({"delivered": ${seen.filter((o) => / delivered\.$/.test(o)).length}})`;
}
