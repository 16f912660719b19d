// With loop.designer.output 'knobs' the designer's prompt shows the parent's knob sheet instead of its code, the
// completion is the lines it changes, and the accepted environment is the parent with those values spliced in,
// validated by the real sandbox. A refused edit is rejected at stage 'parse', naming the line, and keeps the text.
import t from 'tap';
import type { DesignerDeps } from '../../../actors/designer/design.js';
import { design, editableLibrary, knobSheet, loadLibraryEnvs } from '../../../actors/designer/index.js';
import { KNOBS_INTRO } from '../../../actors/loop/prompts.js';
import type { AcceptedEnv, EnvRejectedBody } from '../../../actors/loop/messages.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { tinyLoop } from '../loop/policy/tiny-loop.js';
import { tok, scripted, memory, doc } from './scripted-designer.js';

const library = loadLibraryEnvs();
const door = library.find((e) => e.name === 'door-code')!;

t.test('knob designs splice the edit into the parent', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());
  const options = tinyLoop({ k: 2, designer: { output: 'knobs', familyBalance: false } });
  const parents = editableLibrary(library, () => true).filter((e) => e.name === 'door-code');

  const deps = (text: string) => ({ policy: scripted(text), sandbox: pool, options, corpus: () => doc, memory: memory([]), outcomes: null, parents }) as DesignerDeps & { policy: ReturnType<typeof scripted> };
  const d1 = deps('name = harbour-code\nCODES = 5');
  const r1 = await design({ jobId: 'job-k1', iteration: 1, seed: 3 }, d1);
  t.ok(r1.accepted, 'the child validates');
  const env = r1.outputs[0]!.body as AcceptedEnv;
  t.equal(env.code, door.code.replace("name: 'door-code'", "name: 'harbour-code'").replace('const CODES = 4;', 'const CODES = 5;'), 'the parent with the two values spliced in');
  t.equal(env.spec.name, 'harbour-code');
  t.same(env.parents, ['library:door-code']);
  t.equal(env.designer!.text, 'name = harbour-code\nCODES = 5', 'the sample is the edit');
  const prompt = tok.decode(d1.policy.prompts[0]!);
  t.ok(prompt.includes(`${KNOBS_INTRO}\n${knobSheet(door.code)!}`), 'the prompt shows the knob sheet');
  t.notOk(prompt.includes('const CODES = 4;'), 'and not the code');

  const r2 = await design({ jobId: 'job-k2', iteration: 1, seed: 4 }, deps('SPEED = 9'));
  t.notOk(r2.accepted);
  t.equal(r2.stage, 'parse');
  const rej = r2.outputs[0]!.body as EnvRejectedBody;
  t.match(rej.reason, /knob edit is refused: line 1 .*no knob SPEED/);
  t.equal(rej.code, 'SPEED = 9', 'the rejection keeps what the designer wrote');
});
