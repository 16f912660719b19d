// Grounding, measured in the loop: an accepted environment carries the number of its document's words it brings in
// that its parent lacks, beside the same count against another document drawn for control. A child named and filled
// from its document scores above the control; a child that ignores the document scores the same on both.
import t from 'tap';
import type { DesignerDeps, GroundingDoc } from '../../../actors/designer/design.js';
import { broughtWords, design, editableLibrary, loadLibraryEnvs } from '../../../actors/designer/index.js';
import type { AcceptedEnv } from '../../../actors/loop/messages.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { tinyLoop } from '../loop/policy/tiny-loop.js';
import { scripted, memory } from './scripted-designer.js';

const library = loadLibraryEnvs();
const door = library.find((e) => e.name === 'door-code')!;
const harbour: GroundingDoc = { id: 'doc-harbour', text: 'The harbour master keeps the cargo ledger; every vessel pays a tariff at the quay.' };
const orchard: GroundingDoc = { id: 'doc-orchard', text: 'Apple trees in the orchard blossom in spring and bear fruit by late summer.' };
const grounded = door.code.replace("name: 'door-code'", "name: 'harbour-code'").replace("'red', 'blue', 'green', 'amber'", "'cargo', 'ledger', 'tariff', 'vessel'");
const ungrounded = door.code.replace("name: 'door-code'", "name: 'gate-code'").replace('const CODES = 4;', 'const CODES = 5;');

t.test('accepted environments carry grounding counts against a control document', async (t) => {
  t.equal(broughtWords(grounded, door.code, harbour.text), 5, 'harbour, cargo, ledger, tariff, vessel');
  t.equal(broughtWords(grounded, door.code, orchard.text), 0);
  t.equal(broughtWords(door.code, door.code, harbour.text), 0, 'the parent itself brings nothing');

  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());
  const options = tinyLoop({ k: 2 });
  const parents = editableLibrary(library, () => true).filter((p) => p.name === 'door-code');
  const run = async (code: string, jobId: string) => {
    let calls = 0;
    // The design's document first, then the control stream's draws.
    const corpus = (): GroundingDoc => (calls++ === 0 ? harbour : orchard);
    const deps = { policy: scripted(code), sandbox: pool, options, corpus, memory: memory([]), outcomes: null, parents } as DesignerDeps;
    const r = await design({ jobId, iteration: 1, seed: 5 }, deps);
    t.ok(r.accepted, `${jobId} validates`);
    return (r.outputs[0]!.body as AcceptedEnv).grounding;
  };
  t.same(await run(grounded, 'job-g1'), { docWords: 5, controlWords: 0 });
  t.same(await run(ungrounded, 'job-g2'), { docWords: 0, controlWords: 0 });
});
