// Tool use: total an expense report in euros, fetching an exchange rate for each foreign currency.
const RATES = { USD: [1.02, 1.18], GBP: [0.82, 0.9], JPY: [150, 170], CHF: [0.92, 1.0], SEK: [10.8, 11.9] };
const TOOLS = 'expenses({}), rate({"currency": code}), answer({"eur": n})';

export const spec = {
  name: 'expense-total',
  description: 'Report the total of all expenses in euros, rounded to a whole number (within 1 counts as correct).',
  hint: 'A rate reads "1 EUR = r XXX", so an amount in XXX is worth amount / r euros: divide, do not multiply. Amounts already in EUR need no rate.',
  maxTurns: 10,
};

export default class Env {
  reset(seed) {
    this.rate = { EUR: 1 };
    for (const c of Object.keys(RATES)) this.rate[c] = Math.round((RATES[c][0] + Math.random() * (RATES[c][1] - RATES[c][0])) * 100) / 100;
    const codes = kit.sample(Object.keys(RATES), 3).concat('EUR');
    this.items = kit.range(5).map((i) => {
      const cur = codes[i % codes.length];
      return { what: kit.pick(['taxi', 'hotel', 'lunch', 'train', 'dinner', 'museum']), cur, amount: kit.randInt(10, 300) * (cur === 'JPY' ? 100 : 1) };
    });
    this.total = this.items.reduce((s, it) => s + it.amount / this.rate[it.cur], 0);
    return { observation: kit.lines('Task: what do the expenses add up to in euros?', `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const a = call.args || {};
    let out = `Unknown call or currency. Tools: ${TOOLS}`;
    if (call.name === 'expenses') out = kit.table(['item', 'amount', 'currency'], this.items.map((it) => [it.what, it.amount, it.cur]));
    else if (call.name === 'rate' && this.rate[a.currency]) out = `1 EUR = ${this.rate[a.currency]} ${a.currency}`;
    else if (call.name === 'answer') {
      const ok = Math.abs(Number(a.eur) - this.total) <= 1;
      return { observation: ok ? 'Correct.' : `Wrong: the total is ${Math.round(this.total)} EUR.`, reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: out, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  if (history.length === 0) return 'expenses({})';
  const items = (history[1] ? history[1].observation : observation).split('\n').slice(2).map((l) => l.split('|').map((c) => c.trim()));
  const codes = [...new Set(items.map((r) => r[2]).filter((c) => c !== 'EUR'))];
  if (history.length <= codes.length) return `rate({"currency": "${codes[history.length - 1]}"})`;
  const rate = { EUR: 1 };
  history.slice(2).map((h) => h.observation).concat(observation).forEach((o) => { const m = o.match(/= ([\d.]+) (\w+)/); rate[m[2]] = Number(m[1]); });
  return `answer({"eur": ${Math.round(items.reduce((s, r) => s + Number(r[1]) / rate[r[2]], 0))}})`;
}
