// Tool use: page through a user API with cursors and count the accounts with admin rights.
const TOOLS = 'list_users({"cursor": c}) (omit cursor for the first page), answer({"count": n})';

export const spec = {
  name: 'user-audit',
  description: 'Count the active users who have admin rights, using the paged user API, then answer.',
  hint: 'The role "owner" includes admin rights, so count owners too, but skip suspended users. Pages are short: keep passing next_cursor until it is null.',
  maxTurns: 10,
};

export default class Env {
  reset(seed) {
    do {
      this.users = kit.range(kit.randInt(14, 22)).map((i) => ({
        user: kit.pick(['al', 'bea', 'cas', 'dov', 'eli', 'fay', 'gus']) + (i + 10),
        role: kit.pick(['member', 'member', 'viewer', 'admin', 'owner']),
        status: kit.chance(0.75) ? 'active' : 'suspended',
      }));
      // An active owner and a suspended admin must exist, so both traps change the count.
    } while (!this.users.some((u) => u.role === 'owner' && u.status === 'active') || !this.users.some((u) => u.role === 'admin' && u.status === 'suspended'));
    this.count = this.users.filter((u) => u.role !== 'member' && u.role !== 'viewer' && u.status === 'active').length;
    this.cursors = kit.range(8).map(() => kit.sample('abcdefghjkmnpqrstuvwxyz'.split(''), 6).join(''));
    return { observation: kit.lines('Task: how many active users have admin rights?', `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const a = call.args || {};
    let out = `Unknown call or cursor. Tools: ${TOOLS}`;
    const page = a.cursor ? this.cursors.indexOf(a.cursor) + 1 : 0;
    if (call.name === 'list_users' && page >= 0 && (page > 0 || !a.cursor)) {
      const rows = this.users.slice(page * 4, page * 4 + 4);
      const next = (page + 1) * 4 < this.users.length ? `"${this.cursors[page]}"` : 'null';
      out = kit.lines(rows.map((u) => `${u.user}  role=${u.role}  status=${u.status}`), `next_cursor: ${next}`);
    } else if (call.name === 'answer') {
      const ok = Number(a.count) === this.count;
      return { observation: ok ? 'Correct.' : 'Wrong count.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: out, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  if (history.length === 0) return 'list_users({})';
  const next = observation.match(/next_cursor: "(\w+)"/);
  if (next) return `list_users({"cursor": "${next[1]}"})`;
  const pages = history.slice(1).map((h) => h.observation).concat(observation).join('\n');
  return `answer({"count": ${(pages.match(/role=(admin|owner) {2}status=active/g) || []).length}})`;
}
