// Held-out tool use (variant of library pay-bill / order-refund): log in, then send money with the session token.
const USERS = ['kim', 'lee', 'ola', 'sam', 'eva', 'raj'];
const SIGS = 'login({"user": string}), send({"token": string, "to": string, "amount": number})';

export const spec = {
  name: 'token-transfer',
  description: 'Send the requested amount from the account owner to the payee. send needs a session token for the owner. A wrong transfer ends the task.',
  hint: 'Log in as the owner of the paying account first; the login reply contains the token that send expects, and the token only works for that owner.',
  maxTurns: 5,
};

export default class Env {
  reset(seed) {
    [this.from, this.to] = kit.sample(USERS, 2);
    this.amount = kit.randInt(5, 95);
    this.token = null;
    return { observation: `Tools: ${SIGS}. Task: ${this.from} wants to send ${this.amount} euros to ${this.to}.` };
  }
  step(action) {
    const c = kit.parseCall(action);
    const args = (c && c.args) || {};
    if (c && c.name === 'login') {
      if (args.user !== this.from) return { observation: 'Login refused: only the paying account\'s owner may log in.', reward: 0, terminated: false };
      this.token = `t-${kit.randInt(10000, 99999)}`;
      return { observation: `Logged in as ${this.from}. Token: ${this.token}`, reward: 0, terminated: false };
    }
    if (c && c.name === 'send') {
      if (!this.token || args.token !== this.token) return { observation: 'Invalid token.', reward: 0, terminated: false };
      const ok = args.to === this.to && Number(args.amount) === this.amount;
      return { observation: ok ? 'Transfer done.' : 'Wrong transfer sent.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: `Unknown call. Tools: ${SIGS}`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const m = /Task: (\w+) wants to send (\d+) euros to (\w+)\./.exec(history.length ? history[0].observation : observation);
  if (history.length === 0) return `login({"user": "${m[1]}"})`;
  return `send({"token": "${/t-\d+/.exec(observation)[0]}", "to": "${m[3]}", "amount": ${m[2]}})`;
}
