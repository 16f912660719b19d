// Prints the first action a checkpoint samples on six seeds of an env module, hinted (H) and not (n), token by token,
// beside the observation and the hint: what the agent types where the return only says it failed.
// Usage, after a build: node docs/experiments/2026-12-05-copy-tests/peek.mjs MODULE.js CHECKPOINT...
import { ModelSession, Sampler, loadModel, promptFormat } from '../../../dist/model/index.js';
import { agentPrompt } from '../../../dist/actors/loop/index.js';
import { drillEnv, vmEnv } from '../../../dist/warmstart/index.js';
import { evalStops } from '../../../dist/warmstart/agent-eval.js';

const [file, ...checkpoints] = process.argv.slice(2);
const env = drillEnv(file);
for (const path of checkpoints) {
  const ck = await loadModel(path);
  const tok = promptFormat(ck.codec);
  const session = await ModelSession.create(ck.model, { graphs: ['sample'] });
  const sampler = new Sampler(session, ck.params, ck.policyVersion, tok, { maxBatch: 8, stopTokens: evalStops(tok), seed: 11 });
  console.log('==', path);
  for (const seed of [1001, 1002, 1003, 1004, 1005, 1006]) {
    const first = vmEnv(env).reset(seed);
    for (const hinted of [true, false]) {
      const prompt = agentPrompt(tok, { description: env.spec.description, ...(hinted ? { hint: first.hint } : {}), history: [], observation: first.observation, maxPromptTokens: 1024 });
      const r = await sampler.generate({ prompt, temperature: 0.3, maxTokens: 24 });
      const tokens = tok.encode(r.text).map((i) => JSON.stringify(tok.decode([i]))).join('');
      console.log(seed, hinted ? 'H' : 'n', first.observation.slice(0, 80), '|', first.hint, '=>', JSON.stringify(r.text), tokens);
    }
  }
}
process.exit(0);
