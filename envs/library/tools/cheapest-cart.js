// Tool use: search a paged catalogue, fill a cart with the cheapest stock, and check out.
const KINDS = {
  pen: ['Bic', 'Pilot', 'Zebra', 'Uni', 'Lamy', 'Stabilo'],
  notebook: ['Moleskine', 'Leuchtturm', 'Rhodia', 'Oxford', 'Clairefontaine', 'Muji'],
  mug: ['Ikea', 'Denby', 'Emma', 'Hay', 'Arabia', 'Iittala'],
};
const TOOLS = 'search({"query": kind, "page": n}), add({"id": id, "qty": n}), checkout({})';

export const spec = {
  name: 'cheapest-cart',
  description: 'Buy the requested quantities at the lowest possible total price, then check out.',
  hint: 'Search results are ranked by relevance, not price, three per page: read every page. If the cheapest item has too little stock, buy all it has and the rest from the next cheapest.',
  maxTurns: 14,
};

// Purchases [item, qty] that buy n units of a kind at the lowest cost, or null when stock runs out.
function plan(items, kind, n) {
  const out = [];
  for (const it of items.filter((x) => x.kind === kind && x.stock > 0).sort((a, b) => a.price - b.price)) {
    if (n > 0) out.push([it, Math.min(n, it.stock)]);
    n -= Math.min(n, it.stock);
  }
  return n > 0 ? null : out;
}
const cost = (buys) => buys.reduce((sum, [it, qty]) => sum + it.price * qty, 0);

export default class Env {
  reset(seed) {
    do {
      this.items = [];
      this.want = {};
      for (const kind of kit.sample(Object.keys(KINDS), 2)) {
        this.want[kind] = kit.randInt(2, 5);
        kit.shuffle(KINDS[kind]).forEach((brand, i) => {
          this.items.push({ id: kind[0] + (i + 1), kind, brand, price: kit.randInt(2, 15), stock: kit.randInt(0, 4) });
        });
      }
    } while (Object.keys(this.want).some((k) => !plan(this.items, k, this.want[k])));
    this.best = Object.keys(this.want).reduce((sum, k) => sum + cost(plan(this.items, k, this.want[k])), 0);
    this.cart = {};
    const order = Object.keys(this.want).map((k) => `${this.want[k]} ${k}s`).join(' and ');
    return { observation: kit.lines(`Task: buy ${order} as cheaply as possible.`, `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const args = call.args || {};
    if (call.name === 'search') {
      const kind = String(args.query).toLowerCase().replace(/s$/, ''), page = Number(args.page) || 1;
      const hits = this.items.filter((it) => it.kind === kind);
      const rows = hits.slice(page * 3 - 3, page * 3).map((it) => `${it.id}  ${it.brand} ${it.kind}  $${it.price}  stock ${it.stock}`);
      return { observation: kit.lines(rows, `page ${page} of ${Math.ceil(hits.length / 3)}`), reward: 0, terminated: false };
    }
    if (call.name === 'add') {
      const it = this.items.find((x) => x.id === args.id), qty = Number(args.qty), had = this.cart[args.id] || 0;
      if (!it || !(qty >= 1) || had + qty > it.stock) return { observation: 'Cannot add: unknown item or not enough stock.', reward: 0, terminated: false };
      this.cart[it.id] = had + qty;
      return { observation: `Added ${qty} x ${it.id}.`, reward: 0, terminated: false };
    }
    if (call.name === 'checkout') {
      const buys = Object.keys(this.cart).map((id) => [this.items.find((x) => x.id === id), this.cart[id]]);
      const count = (kind) => buys.filter(([it]) => it.kind === kind).reduce((n, [, qty]) => n + qty, 0);
      const ok = buys.every(([it]) => this.want[it.kind]) && Object.keys(this.want).every((k) => count(k) === this.want[k]) && cost(buys) === this.best;
      const msg = ok ? 'Best possible price!' : 'Not the requested order at the lowest price.';
      return { observation: `Paid $${cost(buys)}. ${msg}`, reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: `Unknown call. Tools: ${TOOLS}`, reward: 0, terminated: false };
  }
}

// Reads both result pages of both kinds, then adds the cheapest plan one item at a time and checks out.
export function oracle(observation, history) {
  const first = history.length ? history[0].observation : observation;
  const want = [...first.matchAll(/(\d+) (\w+)s/g)].map((m) => [m[2], Number(m[1])]);
  const searches = history.filter((h) => h.action.startsWith('search')).length;
  if (searches < 4) return `search({"query": "${want[searches >> 1][0]}", "page": ${(searches % 2) + 1}})`;
  const seen = history.slice(1).map((h) => h.observation).concat(observation).join('\n');
  const items = [...seen.matchAll(/^(\w+) {2}\S+ (\w+) {2}\$(\d+) {2}stock (\d+)$/gm)]
    .map((m) => ({ id: m[1], kind: m[2], price: Number(m[3]), stock: Number(m[4]) }));
  const adds = want.flatMap(([kind, n]) => plan(items, kind, n)).map(([it, qty]) => `add({"id": "${it.id}", "qty": ${qty}})`);
  const done = history.filter((h) => h.action.startsWith('add')).length;
  return done < adds.length ? adds[done] : 'checkout({})';
}
