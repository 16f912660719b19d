// Tool use: pay a bill through a banking API whose rules (checking-only payments, a transfer fee) must be worked around.
const TOOLS = 'accounts({}), transfer({"from": id, "to": id, "amount": n}), pay({"from": id, "payee": id, "amount": n})';

export const spec = {
  name: 'pay-bill',
  description: 'Pay the bill in full using the banking tools. Every rejected call costs you a quarter of the reward.',
  hint: 'Bills can be paid only from checking. A transfer out of savings loses a fee of 2 on the way, so send 2 more than checking is short.',
  maxTurns: 8,
};

export default class Env {
  reset(seed) {
    this.bill = { payee: kit.pick(['power-co', 'water-co', 'netlink', 'city-tax']), amount: kit.randInt(60, 400) };
    this.bal = { checking: kit.randInt(5, this.bill.amount - 10), savings: kit.randInt(this.bill.amount + 50, 2000) };
    this.errors = 0;
    return { observation: kit.lines(`Bill: pay ${this.bill.amount} to ${this.bill.payee}.`, `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const a = call.args || {}, amount = Number(a.amount);
    let err = null, out = '';
    if (call.name === 'accounts') out = `checking: ${this.bal.checking}, savings: ${this.bal.savings}`;
    else if (call.name === 'transfer') {
      if (!(a.from in this.bal) || !(a.to in this.bal) || a.from === a.to || !(amount > 0)) err = 'Rejected: unknown account or bad amount.';
      else if (amount > this.bal[a.from]) err = 'Rejected: insufficient funds.';
      else {
        const fee = a.from === 'savings' ? 2 : 0;
        this.bal[a.from] -= amount;
        this.bal[a.to] += amount - fee;
        out = `Moved ${amount} from ${a.from}; ${a.to} received ${amount - fee}.`;
      }
    } else if (call.name === 'pay') {
      if (a.from !== 'checking') err = 'Rejected: payments are only possible from checking.';
      else if (a.payee !== this.bill.payee || amount !== this.bill.amount) err = 'Rejected: payee or amount does not match the bill.';
      else if (amount > this.bal.checking) err = 'Rejected: insufficient funds.';
      else return { observation: 'Bill paid.', reward: kit.clamp01(1 - 0.25 * this.errors), terminated: true };
    } else err = `Unknown call. Tools: ${TOOLS}`;
    if (err) this.errors += 1;
    return { observation: err || out, reward: 0, terminated: this.errors >= 4 };
  }
}

export function oracle(observation, history) {
  const first = history.length ? history[0].observation : observation;
  const [amount] = kit.parseNumbers(first);
  const payee = first.match(/to ([a-z-]+)\./)[1];
  if (history.length === 0) return 'accounts({})';
  if (history.length === 1) return `transfer({"from": "savings", "to": "checking", "amount": ${amount - kit.parseNumber(observation) + 2}})`;
  return `pay({"from": "checking", "payee": "${payee}", "amount": ${amount}})`;
}
