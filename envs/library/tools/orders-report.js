// Tool use: query two tables of a tiny database and combine them to answer a reporting question.
const CITIES = ['Oslo', 'Lyon', 'Porto', 'Graz', 'Turku'];
const STATUS = ['pending', 'shipped', 'delivered', 'cancelled'];
const TOOLS = 'tables({}), select({"table": name, "where": {column: value}}), answer({"value": n})';

export const spec = {
  name: 'orders-report',
  description: 'Answer the question about the shop database by querying its tables, then call answer.',
  hint: 'An order has left the warehouse when its status is shipped or delivered. Orders name their customer only by customer_id, so select the customers of the city first.',
  maxTurns: 10,
};

export default class Env {
  reset(seed) {
    let mine;
    do {
      this.db = {
        customers: kit.range(1, 9).map((id) => ({ id, name: kit.pick(['Ivo', 'Mia', 'Rui', 'Lea', 'Kai', 'Noa']) + id, city: kit.pick(CITIES) })),
        orders: kit.range(101, 119).map((id) => ({ id, customer_id: kit.randInt(1, 8), total: kit.randInt(5, 90), status: kit.pick(STATUS) })),
      };
      this.city = kit.pick(this.db.customers).city;
      mine = this.db.orders.filter((o) => this.db.customers[o.customer_id - 1].city === this.city);
      // Both statuses must occur, so counting only "shipped" gives a wrong total.
    } while (!mine.some((o) => o.status === 'shipped') || !mine.some((o) => o.status === 'delivered'));
    this.answer = mine.filter((o) => o.status === 'shipped' || o.status === 'delivered').reduce((s, o) => s + o.total, 0);
    return { observation: kit.lines(`Question: what is the combined total of orders from customers in ${this.city} that have left the warehouse?`, `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const a = call.args || {};
    let out = `Unknown call. Tools: ${TOOLS}`;
    if (call.name === 'tables') out = 'customers(id, name, city), orders(id, customer_id, total, status)';
    else if (call.name === 'select' && this.db[a.table]) {
      const where = a.where && typeof a.where === 'object' ? a.where : {};
      const rows = this.db[a.table].filter((r) => Object.keys(where).every((k) => String(r[k]) === String(where[k])));
      out = rows.length ? kit.table(Object.keys(rows[0]), rows.map((r) => Object.values(r))) : '(no rows)';
    } else if (call.name === 'answer') {
      const ok = Number(a.value) === this.answer;
      return { observation: ok ? 'Correct.' : 'Wrong total.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: out, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const city = CITIES.find((c) => (history.length ? history[0].observation : observation).includes(c));
  if (history.length === 0) return `select({"table": "customers", "where": {"city": "${city}"}})`;
  if (history.length === 1) return 'select({"table": "orders"})';
  const rows = (text) => text.split('\n').slice(2).map((l) => l.split('|').map((c) => c.trim()));
  const ids = rows(history[1].observation).map((r) => r[0]);
  const total = rows(observation).filter((r) => ids.includes(r[1]) && (r[3] === 'shipped' || r[3] === 'delivered')).reduce((s, r) => s + Number(r[2]), 0);
  return `answer({"value": ${total}})`;
}
