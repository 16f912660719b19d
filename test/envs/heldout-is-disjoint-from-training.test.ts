// No held-out module is something the loop trains on or copies: its code (raw and normalised), its spec.name and a
// near copy of its code appear in none of the environment library, the warm start's modules (agent episodes and the
// designer's targets), the fixed-environment baseline's pool, or the environment names the stand-in documents show.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadLibraryEnvs } from '../../actors/designer/library-envs.js';
import { DEFAULT_LOOP_OPTIONS } from '../../actors/loop/options.js';
import { loadLibrary } from '../../warmstart/library.js';
import { DEFAULT_TOKENIZER_INPUTS, expandInputs } from '../../model/index.js';
import { repoPath } from '../../runtime/paths.js';
import { codeHash, type SandboxPool } from '../../sandbox/index.js';
import { designerEdits } from '../../warmstart/index.js';
import { heldOutFiles, jaccard, normalisedHash, trigrams } from './heldout-suite.js';

/** Token-trigram Jaccard above this counts as a near copy (the novelty threshold issue 10 names). */
const NEAR_COPY = 0.8;

const heldOut = loadLibrary(repoPath('envs', 'heldout')); // the warm start's own vm loader reads each spec
const files = heldOutFiles();

// What the loop trains on or copies, each loaded the way the loop loads it.
const library = loadLibraryEnvs(); // envs/library: the designer's corpus of examples and the warm start's walk
const fixedBaseline = loadLibraryEnvs(DEFAULT_LOOP_OPTIONS.library ? resolve(DEFAULT_LOOP_OPTIONS.library) : undefined); // as designer-actor.ts does
const warmStart = loadLibrary(); // agent oracle episodes; the designer's targets are a subset (train.ts: designerEnvs)
const training = [
  ...library.map((e) => ({ source: `library ${e.family}/${e.name}`, name: e.name, code: e.code })),
  ...fixedBaseline.map((e) => ({ source: `fixed baseline ${e.family}/${e.name}`, name: e.name, code: e.code })),
  ...warmStart.map((e) => ({ source: `warm start ${e.family}/${e.name}`, name: e.spec.name, code: e.code })),
];
// Stand-in documents for designer prompts are docs/*.md paragraphs: the environment names written in them.
const docNames = readdirSync(repoPath('docs')).filter((f) => f.endsWith('.md'))
  .flatMap((f) => [...readFileSync(repoPath('docs', f), 'utf8').matchAll(/name: '([a-z0-9-]+)'/g)].map((m) => m[1]!));

t.test('held-out modules are disjoint from every training source', async (t) => {
  t.test('the suite and the training sources were loaded', async (t) => {
    t.equal(heldOut.length, files.length, 'every held-out file has a spec');
    t.ok(library.length >= 24 && fixedBaseline.length === library.length && warmStart.length === library.length, 'library, baseline and warm start');
    t.ok(docNames.includes('sum-to-target'), 'names in the docs are found');
  });

  t.test('no held-out spec name is used in training, and held-out names are distinct', async (t) => {
    const names = new Set([...training.map((e) => e.name), ...docNames]);
    for (const e of heldOut) t.notOk(names.has(e.spec.name), `${e.family}/${e.name}: spec name "${e.spec.name}" is not used in training`);
    t.equal(new Set(heldOut.map((e) => e.spec.name)).size, heldOut.length, 'held-out names are distinct');
  });

  t.test('no held-out module has the code hash of a training module, raw or normalised', async (t) => {
    const raw = new Map(training.map((e) => [codeHash(e.code), e.source]));
    const norm = new Map(training.map((e) => [normalisedHash(e.code), e.source]));
    for (const f of files) {
      t.notOk(raw.has(codeHash(f.code)), `${f.file}: raw hash ${raw.get(codeHash(f.code)) ?? 'unused'}`);
      t.notOk(norm.has(normalisedHash(f.code)), `${f.file}: normalised hash ${norm.get(normalisedHash(f.code)) ?? 'unused'}`);
    }
  });

  t.test('no held-out module is a near copy of a training module', async (t) => {
    const grams = training.map((e) => ({ source: e.source, g: trigrams(e.code) }));
    for (const f of files) {
      const mine = trigrams(f.code);
      const best = grams.reduce((b, e) => { const j = jaccard(mine, e.g); return j > b.j ? { j, source: e.source } : b; }, { j: 0, source: '' });
      t.ok(best.j < NEAR_COPY, `${f.file}: highest trigram similarity ${best.j.toFixed(2)} (${best.source}) < ${NEAR_COPY}`);
    }
  });

  t.test("the warm start's designer edits never take a held-out name", async (t) => {
    // A document whose only word turns door-code's child into a held-out name: the child is left out unvalidated.
    const clash = heldOut.map((e) => e.spec.name).find((n) => /^[a-z]+-code$/.test(n));
    t.ok(clash, 'a held-out name of the form <word>-code exists to clash with');
    const word = clash!.split('-')[0]!;
    const docs = { kind: 'stand-in' as const, size: 1, sample: () => ({ id: 'd', text: `${word} ${word} ${word}` }) };
    const door = warmStart.filter((e) => e.name === 'door-code');
    // Children under other names (the rename may end in -key or -pin) reach validation, which refuses them here.
    const validated: string[] = [];
    const refusing = { validate: async (code: string) => (validated.push(/name: '([^']+)'/.exec(code)?.[1] ?? ''), { ok: false, failed: 'stand-in', stages: [] }) } as unknown as SandboxPool;
    const reservedNames = new Set(heldOut.map((e) => e.spec.name));
    const { edits, stats } = await designerEdits(refusing, door, docs, { perParent: 4, secondEdits: 0, validationSeeds: 8, seed: 1, reservedNames });
    t.equal(edits.length, 0);
    t.ok(stats.reserved > 0, `tries that named the child ${clash} were left out (${stats.reserved})`);
    t.same(validated.filter((n) => reservedNames.has(n)), [], `no reserved name was validated (validated: ${validated.join(', ')})`);
  });

  t.test('the tokenizer trainer does not read the held-out suite', async (t) => {
    const inputs = expandInputs(DEFAULT_TOKENIZER_INPUTS, repoPath()).map((f) => f.replace(/\\/g, '/'));
    t.ok(inputs.some((f) => `/${f}`.includes('/envs/library/')), 'the scan sees the library');
    t.same(inputs.filter((f) => `/${f}`.includes('/envs/heldout/')), [], 'no held-out file is a tokenizer input');
  });
});
