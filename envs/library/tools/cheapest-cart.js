// Tool use: search a paged catalogue, fill a cart with the cheapest stock, and check out.
const KINDS = { pen: ['Bic', 'Pilot', 'Zebra', 'Uni', 'Lamy', 'Stabilo'], notebook: ['Moleskine', 'Leuchtturm', 'Rhodia', 'Oxford', 'Clairefontaine', 'Muji'], mug: ['Ikea', 'Denby', 'Emma', 'Hay', 'Arabia', 'Iittala'] };
const TOOLS = 'search({"query": kind, "page": n}), add({"id": id, "qty": n}), checkout({})';

export const spec = {
  name: 'cheapest-cart',
  description: 'Buy the requested quantities at the lowest possible total price, then check out.',
  hint: 'Search results are ranked by relevance, not price, three per page: read every page. If the cheapest item has too little stock, buy all it has and the rest from the next cheapest.',
  maxTurns: 14,
};

export default class Env {
  reset(seed) {
    this.items = {};
    this.want = {};
    for (const kind of kit.sample(Object.keys(KINDS), 2)) {
      this.want[kind] = kit.randInt(2, 5);
      kit.shuffle(KINDS[kind]).forEach((brand, i) => {
        this.items[kind[0] + (i + 1)] = { kind, brand, price: kit.randInt(2, 15), stock: kit.randInt(0, 4) };
      });
    }
    this.best = Object.keys(this.want).reduce((sum, kind) => sum + cheapest(this.items, kind, this.want[kind]), 0);
    if (!Number.isFinite(this.best)) return this.reset(seed);
    this.cart = {};
    const order = Object.keys(this.want).map((k) => `${this.want[k]} ${k}s`).join(' and ');
    return { observation: kit.lines(`Task: buy ${order} as cheaply as possible.`, `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const args = call.args || {};
    let out = `Unknown call. Tools: ${TOOLS}`;
    if (call.name === 'search') {
      const hits = Object.keys(this.items).filter((id) => this.items[id].kind === String(args.query).toLowerCase().replace(/s$/, ''));
      const page = Number(args.page) || 1;
      out = kit.lines(hits.slice(page * 3 - 3, page * 3).map((id) => { const it = this.items[id]; return `${id}  ${it.brand} ${it.kind}  $${it.price}  stock ${it.stock}`; }),
        `page ${page} of ${Math.ceil(hits.length / 3)}`);
    } else if (call.name === 'add') {
      const it = this.items[args.id], qty = Number(args.qty);
      if (!it || !(qty >= 1) || (this.cart[args.id] || 0) + qty > it.stock) out = 'Cannot add: unknown item or not enough stock.';
      else { this.cart[args.id] = (this.cart[args.id] || 0) + qty; out = `Added ${qty} x ${args.id}.`; }
    } else if (call.name === 'checkout') {
      const count = (kind) => Object.keys(this.cart).filter((id) => this.items[id].kind === kind).reduce((n, id) => n + this.cart[id], 0);
      const total = Object.keys(this.cart).reduce((sum, id) => sum + this.cart[id] * this.items[id].price, 0);
      const ok = Object.keys(this.want).every((k) => count(k) === this.want[k]) && Object.keys(this.cart).every((id) => this.want[this.items[id].kind]) && total === this.best;
      return { observation: ok ? `Paid $${total}. Best possible price!` : `Paid $${total}. Not the requested order at the lowest price.`, reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: out, reward: 0, terminated: false };
  }
}

// Lowest cost of n units of a kind, cheapest first; Infinity when stock runs out.
function cheapest(items, kind, n) {
  let cost = 0;
  for (const it of Object.values(items).filter((x) => x.kind === kind).sort((a, b) => a.price - b.price)) {
    const take = Math.min(n, it.stock);
    cost += take * it.price;
    n -= take;
  }
  return n > 0 ? Infinity : cost;
}

export function oracle(observation, history) {
  const first = history.length ? history[0].observation : observation;
  const want = [...first.matchAll(/(\d+) (\w+)s/g)].map((m) => [m[2], Number(m[1])]);
  const results = history.slice(1).map((h) => h.observation).concat(observation);
  const searches = history.filter((h) => h.action.startsWith('search')).length;
  if (searches < 4) return `search({"query": "${want[searches >> 1][0]}", "page": ${(searches % 2) + 1}})`;
  const items = results.join('\n').split('\n').map((l) => l.match(/^(\w+) {2}\S+ (\w+) {2}\$(\d+) {2}stock (\d+)/)).filter(Boolean)
    .map((m) => ({ id: m[1], kind: m[2], price: Number(m[3]), stock: Number(m[4]) })).sort((a, b) => a.price - b.price);
  const plan = [];
  for (const [kind, n] of want) {
    let left = n;
    for (const it of items.filter((x) => x.kind === kind && x.stock > 0)) if (left > 0) { plan.push(`add({"id": "${it.id}", "qty": ${Math.min(left, it.stock)}})`); left -= Math.min(left, it.stock); }
  }
  const adds = history.filter((h) => h.action.startsWith('add')).length;
  return adds < plan.length ? plan[adds] : 'checkout({})';
}
