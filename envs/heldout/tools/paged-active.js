// Held-out tool use (variant of library user-audit): count active members through a page-numbered listing.
const STATUSES = ['active', 'active', 'inactive', 'suspended', 'invited'];
const PER_PAGE = 4;
const SIGS = 'members({"page": number}), answer({"count": number})';

export const spec = {
  name: 'paged-active',
  description: 'Count the members whose status is active. The members tool lists them a page at a time, starting at page 1. Answer with the count; a wrong count ends the task.',
  hint: 'Read every page: keep asking for the next page number until a reply says it is the last page. Invited, inactive and suspended members do not count.',
  maxTurns: 8,
};

export default class Env {
  reset(seed) {
    const n = kit.randInt(6, 16);
    this.members = kit.range(n).map((i) => ({ id: `m${100 + i}`, status: kit.pick(STATUSES) }));
    this.pages = Math.ceil(n / PER_PAGE);
    this.active = this.members.filter((m) => m.status === 'active').length;
    return { observation: `Tools: ${SIGS}. Task: how many members are active?` };
  }
  step(action) {
    const c = kit.parseCall(action);
    const args = (c && c.args) || {};
    if (c && c.name === 'members') {
      const p = Number(args.page);
      if (!Number.isInteger(p) || p < 1 || p > this.pages) return { observation: 'No such page.', reward: 0, terminated: false };
      const rows = this.members.slice((p - 1) * PER_PAGE, p * PER_PAGE).map((m) => `${m.id} ${m.status}`);
      return { observation: `${rows.join('; ')}. ${p === this.pages ? 'This is the last page.' : `Next page: ${p + 1}.`}`, reward: 0, terminated: false };
    }
    if (c && c.name === 'answer') {
      const ok = Number(args.count) === this.active;
      return { observation: ok ? 'Correct.' : 'Wrong count.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: `Unknown call. Tools: ${SIGS}`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  if (history.length === 0) return 'members({"page": 1})';
  if (!observation.includes('last page')) return `members({"page": ${history.length + 1}})`;
  const pages = history.slice(1).map((h) => h.observation).concat(observation);
  const count = pages.reduce((s, p) => s + (p.match(/ active[;.]/g) || []).length, 0);
  return `answer({"count": ${count}})`;
}
