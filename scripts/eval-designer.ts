// Samples N designer outputs from a checkpoint for real corpus documents, validates them in the sandbox and prints the
// pass rate, the failing-stage histogram and copies of the library; ends with one JSON line of the figures.
// Usage: node dist/scripts/eval-designer.js [--checkpoint model/checkpoints/base --samples 40 --temperature 0.5 --seed 7 --output module|knobs --out samples.jsonl]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { evaluateDesigner } from '../warmstart/index.js';
import { repoPath } from '../runtime/paths.js';

const { values: a } = parseArgs({
  options: {
    checkpoint: { type: 'string', default: repoPath('model', 'checkpoints', 'base') }, samples: { type: 'string' }, temperature: { type: 'string' },
    'top-p': { type: 'string' }, 'max-memory': { type: 'string' }, seed: { type: 'string' }, documents: { type: 'string' }, 'max-batch': { type: 'string' }, 'max-tokens': { type: 'string' },
    'call-timeout-ms': { type: 'string' }, threads: { type: 'string' }, out: { type: 'string' }, output: { type: 'string' },
  },
});
const num = (k: keyof typeof a): number | undefined => (a[k] === undefined ? undefined : Number(a[k]));
const r = await evaluateDesigner({
  checkpoint: a.checkpoint!, samples: num('samples'), temperature: num('temperature'), topP: num('top-p'), maxMemory: num('max-memory'), seed: num('seed'),
  maxBatch: num('max-batch'), maxTokens: num('max-tokens'), callTimeoutMs: num('call-timeout-ms'), threads: num('threads'),
  ...(a.documents !== undefined ? { documents: a.documents as 'auto' | 'corpus' | 'stand-in' } : {}),
  ...(a.output !== undefined ? { output: a.output as 'module' | 'knobs' } : {}),
} as Parameters<typeof evaluateDesigner>[0]);
for (const [i, s] of r.samples.entries()) {
  console.log(`${String(i).padStart(3)} ${s.stage.padEnd(12)} ${String(s.name).padEnd(20)} ← ${s.parent.padEnd(14)} ${String(s.tokens).padStart(5)} tok ${s.finishReason}`
    + `${s.libraryCopy ? ' (library copy)' : s.parentCopy ? ' (parent copy)' : ''}${s.novel ? ' novel' : ''} sim ${s.maxLibrarySimilarity.toFixed(2)} doc words ${s.docWords}/${s.shuffledDocWords}`
    + `${s.detail ? `  ${s.detail.replace(/\s+/g, ' ').slice(0, 100)}` : ''}`);
}
const n = r.samples.length;
console.log(`pass rate ${(r.passRate * 100).toFixed(1)}% (${r.stages['ok']}/${n}) at temperature ${r.options.temperature}, top-p ${r.options.topP}; `
  + `stages ${Object.entries(r.stages).filter(([, c]) => c > 0).map(([k, c]) => `${k} ${c}`).join(', ')}; `
  + `${r.distinctValidNames.length} distinct valid envs; ${r.libraryCopies} exact library copies; valid: ${r.valid.parentCopies} parent copies, ${r.valid.novel} novel (${r.valid.newStructure} with new structure), `
  + `${r.valid.intKnobMoves} moved an integer knob; document words ${r.valid.docWords.toFixed(2)} vs shuffled ${r.valid.shuffledDocWords.toFixed(2)}; sampling ${r.sampleSeconds.toFixed(0)} s (${r.sampledTokensPerSec.toFixed(0)} tok/s), validation ${r.validateSeconds.toFixed(0)} s`);
if (a.out) writeFileSync(a.out, r.samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
console.log(JSON.stringify({
  script: 'eval-designer', checkpoint: r.options.checkpoint, samples: n, temperature: r.options.temperature, topP: r.options.topP, seed: r.options.seed,
  passRate: +r.passRate.toFixed(3), stages: r.stages, distinctValidNames: r.distinctValidNames, libraryCopies: r.libraryCopies, valid: r.valid,
  sampleSeconds: +r.sampleSeconds.toFixed(1), validateSeconds: +r.validateSeconds.toFixed(1), sampledTokensPerSec: +r.sampledTokensPerSec.toFixed(1),
}));
