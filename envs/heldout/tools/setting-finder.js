// Held-out tool use (variant of library config-lookup): find a service's live connection limit in a file tree with
// list/read, where backups hold stale values.
const SERVICES = ['ledger', 'gateway', 'indexer', 'notifier', 'uploader'];
const SIGS = 'list({"dir": "/path"}), read({"file": "/path/name"}), submit({"value": number})';

export const spec = {
  name: 'setting-finder',
  description: 'Use list and read to find the max_connections setting of the named service, then submit it. A wrong value ends the task.',
  hint: 'Everything under /backup is an old copy. The running setting is in the one .ini file inside /opt/<service>/current.',
  maxTurns: 10,
};

export default class Env {
  reset(seed) {
    this.service = kit.pick(SERVICES);
    this.files = Object.create(null); // no prototype: a looked-up name such as "constructor" finds nothing
    for (const s of SERVICES) {
      const v = kit.randInt(10, 500);
      if (s === this.service) this.value = v;
      this.files[`/backup/${s}.ini`] = `max_connections=${kit.randInt(10, 500)}`;
      this.files[`/opt/${s}/current/${kit.pick(['main', 'service', 'runtime'])}.ini`] = `max_connections=${v}\nthreads=${kit.randInt(2, 32)}`;
      this.files[`/opt/${s}/NOTES.txt`] = `${s} deployment notes.`;
    }
    return { observation: `Tools: ${SIGS}. Task: find max_connections for the ${this.service} service.` };
  }
  step(action) {
    const c = kit.parseCall(action);
    const args = (c && c.args) || {};
    if (c && c.name === 'list') {
      const dir = String(args.dir || '/').slice(0, 200).replace(/\/+$/, '');
      const kids = new Set(Object.keys(this.files).filter((f) => f.startsWith(dir + '/')).map((f) => f.slice(dir.length + 1).split('/')[0]));
      return { observation: kids.size ? [...kids].sort().join(' ') : 'No such directory.', reward: 0, terminated: false };
    }
    if (c && c.name === 'read') {
      const f = this.files[String(args.file || '')];
      return { observation: f === undefined ? 'No such file.' : f, reward: 0, terminated: false };
    }
    if (c && c.name === 'submit') {
      const ok = Number(args.value) === this.value;
      return { observation: ok ? 'Correct.' : 'Wrong value.', reward: ok ? 1 : 0, terminated: true };
    }
    return { observation: `Unknown call. Tools: ${SIGS}`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const service = /for the (\w+) service/.exec(history.length ? history[0].observation : observation)[1];
  const dir = `/opt/${service}/current`;
  if (history.length === 0) return `list({"dir": "${dir}"})`;
  if (history.length === 1) return `read({"file": "${dir}/${observation.split(' ').find((f) => f.endsWith('.ini'))}"})`;
  return `submit({"value": ${kit.parseNumber(observation)}})`;
}
