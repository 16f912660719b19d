// Held-out tool use (new, easiest): make exactly the call the message asks for, among a few listed tools.
const TOOLS = ['ping', 'restart', 'status', 'flush', 'rotate', 'backup'];
const HOSTS = ['db', 'web', 'cache', 'queue', 'mail', 'auth'];
const LISTED = 3; // difficulty knob: how many tools are listed

export const spec = {
  name: 'copy-call',
  description: 'Make the one tool call the operator asks for, written as name({"host": "..."}). One call.',
  hint: 'The operator names both the tool and the host: write that tool\'s name, then the host in JSON inside the parentheses.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    const tools = kit.sample(TOOLS, LISTED);
    this.tool = tools[0];
    this.host = `${kit.pick(HOSTS)}-${kit.randInt(1, 9)}`;
    const sigs = kit.shuffle(tools).map((t) => `${t}({"host": string})`).join(', ');
    return { observation: `Tools: ${sigs}. Operator: please run ${this.tool} on host ${this.host}.` };
  }
  step(action) {
    const c = kit.parseCall(action);
    const ok = !!c && c.name === this.tool && !!c.args && c.args.host === this.host;
    return { observation: ok ? 'Done.' : 'That is not the requested call.', reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const m = /please run (\w+) on host ([\w-]+)\./.exec(observation);
  return `${m[1]}({"host": "${m[2]}"})`;
}
