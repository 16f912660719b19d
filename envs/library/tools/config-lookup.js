// Tool use: explore a small file system with ls/cat to find a service's live configuration value.
const SERVICES = ['billing', 'search', 'mailer', 'auth', 'media'];
const TOOLS = 'ls({"path": "/dir"}), cat({"path": "/dir/file"}), answer({"port": number})';

export const spec = {
  name: 'config-lookup',
  description: 'Use the file tools to find the port a service is configured to use, then answer it.',
  hint: 'Files under /etc are stale copies from an old deploy. Each service\'s live config sits in a subfolder of /srv/<service>/.',
  maxTurns: 12,
};

export default class Env {
  reset(seed) {
    this.service = kit.pick(SERVICES);
    this.files = {};
    for (const s of SERVICES) {
      const port = kit.randInt(2000, 9999);
      if (s === this.service) this.port = port;
      this.files[`/etc/${s}.conf`] = `# generated 2019-03-02\nport = ${kit.randInt(2000, 9999)}`;
      this.files[`/srv/${s}/${kit.pick(['config', 'conf.d', 'settings'])}/${kit.pick(['live', 'current', 'active'])}.conf`] = `port = ${port}\nworkers = ${kit.randInt(2, 16)}`;
      this.files[`/srv/${s}/README`] = `${s} service files.`;
      this.files[`/var/log/${s}.log`] = `${s} started`;
    }
    return { observation: kit.lines(`Task: find the port the ${this.service} service is configured to use.`, `Tools: ${TOOLS}`) };
  }
  step(action) {
    const call = kit.parseCall(action) || { name: '', args: {} };
    const path = String((call.args && call.args.path) || '').slice(0, 200).replace(/\/+$/, '') || '/';
    let out;
    if (call.name === 'ls') {
      const kids = new Set(Object.keys(this.files).filter((f) => f.startsWith(path === '/' ? '/' : path + '/'))
        .map((f) => { const rest = f.slice(path === '/' ? 1 : path.length + 1); return rest.includes('/') ? rest.split('/')[0] + '/' : rest; }));
      out = kids.size ? [...kids].sort().join('  ') : `ls: ${path}: no such directory`;
    } else if (call.name === 'cat') {
      out = this.files[path] !== undefined ? this.files[path] : `cat: ${path}: no such file`;
    } else if (call.name === 'answer') {
      const ok = Number(call.args && call.args.port) === this.port;
      return { observation: ok ? 'Correct.' : 'Wrong port.', reward: ok ? 1 : 0, terminated: true };
    } else out = `Unknown call. Tools: ${TOOLS}`;
    return { observation: out, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  const first = history.length ? history[0].observation : observation;
  const service = SERVICES.find((s) => first.includes(`the ${s} service`));
  const last = history.length ? history[history.length - 1].action : '';
  if (!last) return `ls({"path": "/srv/${service}"})`;
  const dir = kit.parseCall(last).args.path;
  if (last.startsWith('cat')) return `answer({"port": ${kit.parseNumber(observation)}})`;
  const entry = observation.split(/\s+/).find((e) => e.endsWith('/') || e.endsWith('.conf'));
  return entry.endsWith('/') ? `ls({"path": "${dir}/${entry.slice(0, -1)}"})` : `cat({"path": "${dir}/${entry}"})`;
}
