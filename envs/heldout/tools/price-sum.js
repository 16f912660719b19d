// Held-out tool use (variant of library expense-total / cheapest-cart): total a shopping list from price lookups.
const ITEMS = ['pen', 'notebook', 'stapler', 'folder', 'marker', 'ruler', 'eraser', 'tape'];
const SIGS = 'price({"item": string}), answer({"total": number})';
const LINES = 2; // difficulty knob: how many items are on the list

export const spec = {
  name: 'price-sum',
  description: 'Look up unit prices with the price tool and answer with the total cost of the shopping list in whole euros. A wrong total ends the task.',
  hint: 'Prices are per single unit: multiply each item\'s price by the quantity on the list, then add the products.',
  maxTurns: 6,
};

export default class Env {
  reset(seed) {
    this.prices = Object.create(null); // no prototype: a looked-up name such as "constructor" finds nothing
    for (const i of ITEMS) this.prices[i] = kit.randInt(2, 15);
    this.list = kit.sample(ITEMS, LINES).map((item) => ({ item, qty: kit.randInt(2, 4) }));
    this.total = this.list.reduce((s, l) => s + l.qty * this.prices[l.item], 0);
    return { observation: `Tools: ${SIGS}. List: ${this.list.map((l) => `${l.qty} x ${l.item}`).join(', ')}.` };
  }
  step(action) {
    const c = kit.parseCall(action);
    const args = (c && c.args) || {};
    if (c && c.name === 'price') {
      const p = this.prices[args.item];
      return { observation: p ? `${args.item} costs ${p} euros each.` : 'Unknown item.', reward: 0, terminated: false };
    }
    if (c && c.name === 'answer') {
      const ok = Number(args.total) === this.total;
      return { observation: ok ? 'Correct total.' : 'Wrong total.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: `Unknown call. Tools: ${SIGS}`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const first = history.length ? history[0].observation : observation;
  const list = [...first.matchAll(/(\d+) x (\w+)/g)].map((m) => ({ qty: Number(m[1]), item: m[2] }));
  if (history.length < list.length) return `price({"item": "${list[history.length].item}"})`;
  const seen = history.slice(1).map((h) => h.observation).concat(observation);
  const total = list.reduce((s, l, i) => s + l.qty * kit.parseNumber(seen[i]), 0);
  return `answer({"total": ${total}})`;
}
