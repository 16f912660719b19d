// Held-out tool use (new, medium): find which store holds the most units of an item by querying each store.
const STORES = ['north', 'south', 'east', 'west'];
const ITEMS = ['lamp', 'chair', 'desk', 'shelf', 'rug'];
const SIGS = 'stock({"store": string, "item": string}), answer({"store": string})';

export const spec = {
  name: 'stock-max',
  description: `Find the store (${STORES.join(', ')}) with the most units of the item asked for, using the stock tool, then answer it. A wrong store ends the task.`,
  hint: 'Query the asked item at every one of the four stores before answering; the counts differ and there are no ties.',
  maxTurns: 7,
};

export default class Env {
  reset(seed) {
    this.item = kit.pick(ITEMS);
    this.stock = Object.create(null); // no prototype: a looked-up name such as "constructor" finds nothing
    for (const s of STORES) {
      this.stock[s] = Object.create(null);
      for (const i of ITEMS) this.stock[s][i] = kit.randInt(0, 40);
    }
    const counts = kit.sample(kit.range(0, 41), STORES.length);
    STORES.forEach((s, k) => { this.stock[s][this.item] = counts[k]; });
    this.best = STORES[counts.indexOf(Math.max(...counts))];
    return { observation: `Tools: ${SIGS}. Task: which store has the most ${this.item} units?` };
  }
  step(action) {
    const c = kit.parseCall(action);
    const args = (c && c.args) || {};
    if (c && c.name === 'stock') {
      const s = this.stock[args.store];
      if (!s || s[args.item] === undefined) return { observation: 'Unknown store or item.', reward: 0, terminated: false };
      return { observation: `${args.store} has ${s[args.item]} ${args.item} units.`, reward: 0, terminated: false };
    }
    if (c && c.name === 'answer') {
      const ok = args.store === this.best;
      return { observation: ok ? 'Correct.' : 'Wrong store.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: `Unknown call. Tools: ${SIGS}`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const item = /the most (\w+) units/.exec(history.length ? history[0].observation : observation)[1];
  if (history.length < STORES.length) return `stock({"store": "${STORES[history.length]}", "item": "${item}"})`;
  const counts = history.slice(1).map((h) => h.observation).concat(observation).map((o) => kit.parseNumber(o));
  return `answer({"store": "${STORES[counts.indexOf(Math.max(...counts))]}"})`;
}
