// Tool use: an authenticated support API with single-use tokens and partial refunds already on record.
const TOOLS = 'login({"user": u, "password": p}), order({"id": n, "token": t}), refund({"id": n, "amount": x, "token": t})';

export const spec = {
  name: 'order-refund',
  description: 'Refund the rest of the customer\'s order so it ends fully refunded. One refund only.',
  hint: 'Every token is spent by the first call that uses it, so log in again before each order or refund call. The refund amount is the order total minus what was already refunded.',
  maxTurns: 10,
};

export default class Env {
  reset(seed) {
    this.id = kit.randInt(1000, 9999);
    this.total = kit.randInt(40, 400);
    this.refunded = kit.randInt(5, this.total - 20);
    this.password = `pw-${kit.randInt(1000, 9999)}`;
    this.tokens = [];
    return { observation: kit.lines(`Customer wants order ${this.id} fully refunded. Login: user "support", password "${this.password}".`, `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const a = call.args || {};
    const more = { reward: 0, terminated: false };
    if (call.name === 'login') {
      if (a.user !== 'support' || a.password !== this.password) return { observation: '401 bad credentials', ...more };
      this.tokens.push(`t${kit.randInt(100000, 999999)}`);
      return { observation: `token: ${this.tokens[this.tokens.length - 1]}`, ...more };
    }
    if (call.name !== 'order' && call.name !== 'refund') return { observation: `Unknown call. Tools: ${TOOLS}`, ...more };
    if (!this.tokens.includes(a.token)) return { observation: '401 invalid or used token', ...more };
    this.tokens = this.tokens.filter((t) => t !== a.token);
    if (Number(a.id) !== this.id) return { observation: '404 no such order', ...more };
    if (call.name === 'order') return { observation: `order ${this.id}: total ${this.total}, already refunded ${this.refunded}, status delivered`, ...more };
    const amount = Number(a.amount), left = this.total - this.refunded;
    if (!(amount > 0) || amount > left) return { observation: `422 amount must be between 1 and the refundable rest`, ...more };
    const ok = amount === left;
    return { observation: ok ? 'Refunded. The order is now fully refunded.' : `Refunded ${amount}, but the order is not fully refunded.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation, history) {
  const first = history.length ? history[0].observation : observation;
  const [id] = kit.parseNumbers(first), password = first.match(/password "([^"]+)"/)[1];
  if (history.length % 2 === 0) return `login({"user": "support", "password": "${password}"})`;
  const token = observation.match(/token: (\w+)/)[1];
  if (history.length === 1) return `order({"id": ${id}, "token": "${token}"})`;
  const [, total, refunded] = kit.parseNumbers(history[2].observation);
  return `refund({"id": ${id}, "amount": ${total - refunded}, "token": "${token}"})`;
}
