// Tool use: read an inbox, find the manager's current instruction, and forward the right invoice.
const TOOLS = 'list({}), read({"id": n}), forward({"id": n, "to": address})';
const TEAMS = ['accounting', 'legal', 'audit', 'finance'];

export const spec = {
  name: 'inbox-forward',
  description: 'Carry out what your manager asked for by email. You can forward only once.',
  hint: 'Your manager wrote twice and the instructions differ: only the more recent email (later date) counts. The list is not sorted by date.',
  maxTurns: 10,
};

export default class Env {
  reset(seed) {
    const [o1, o2] = kit.sample(kit.range(4000, 5000), 2), [t1, t2] = kit.sample(TEAMS, 2), [d1, d2] = kit.sample(kit.range(3, 28), 2).sort((a, b) => a - b);
    const mails = [
      { from: 'dana (manager)', date: d1, subject: 'Invoice', body: `Please forward the invoice for order ${o1} to ${t1}@corp.example.` },
      { from: 'dana (manager)', date: d2, subject: 'Invoice', body: `Please forward the invoice for order ${o2} to ${t2}@corp.example.` },
      { from: 'billing@supplier.example', date: kit.randInt(1, 28), subject: `Invoice for order ${o1}`, body: `Amount due: ${kit.randInt(100, 900)} EUR.` },
      { from: 'billing@supplier.example', date: kit.randInt(1, 28), subject: `Invoice for order ${o2}`, body: `Amount due: ${kit.randInt(100, 900)} EUR.` },
      { from: 'it-desk', date: kit.randInt(1, 28), subject: 'Password expiry', body: 'Your password expires soon.' },
      { from: 'sam', date: kit.randInt(1, 28), subject: 'Lunch?', body: 'Pizza on Friday?' },
    ];
    this.mails = kit.shuffle(mails);
    this.target = { id: this.mails.findIndex((m) => m.subject === `Invoice for order ${o2}`) + 1, to: `${t2}@corp.example` };
    return { observation: kit.lines('You have new mail. Do what your manager asked.', `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const a = call.args || {}, mail = this.mails[Number(a.id) - 1];
    let out = `Unknown call or id. Tools: ${TOOLS}`;
    if (call.name === 'list') out = kit.table(['id', 'from', 'date', 'subject'], this.mails.map((m, i) => [i + 1, m.from, `May ${m.date}`, m.subject]));
    else if (call.name === 'read' && mail) out = `From: ${mail.from}\nDate: May ${mail.date}\nSubject: ${mail.subject}\n\n${mail.body}`;
    else if (call.name === 'forward' && mail) {
      const ok = Number(a.id) === this.target.id && a.to === this.target.to;
      return { observation: ok ? 'Forwarded. Your manager is happy.' : 'Forwarded, but that is not what your manager wanted.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: out, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  if (history.length === 0) return 'list({})';
  const rows = history[1] ? history[1].observation : observation;
  const mails = rows.split('\n').slice(2).map((l) => l.split('|').map((c) => c.trim()));
  const latest = mails.filter((m) => m[1].includes('manager')).sort((x, y) => kit.parseNumber(y[2]) - kit.parseNumber(x[2]))[0];
  if (history.length === 1) return `read({"id": ${latest[0]}})`;
  const [order] = kit.parseNumbers(observation.split('\n\n')[1]);
  const to = observation.match(/to (\S+@corp\.example)/)[1];
  const invoice = mails.find((m) => m[3] === `Invoice for order ${order}`);
  return `forward({"id": ${invoice[0]}, "to": "${to}"})`;
}
