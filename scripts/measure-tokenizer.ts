// Measures byte-level vs BPE tokenizers of several vocab sizes on held-out text: bytes per token,
// training time, encode throughput, and the model compute per byte of text each implies.
// Usage: node dist/scripts/measure-tokenizer.js [--sizes 512,1024,2048,4096] [input globs/paths...]
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DEFAULT_TOKENIZER_INPUTS, expandInputs, readDocuments, trainTokenizer } from '../model/index.js';
import { byteTokenizer, Tokenizer } from '../model/index.js';
import { REPO_ROOT } from '../runtime/paths.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    sizes: { type: 'string', default: '512,1024,2048,4096' },
    // A reference decoder for the cost estimate: width, layers, context in tokens.
    width: { type: 'string', default: '256' },
    layers: { type: 'string', default: '4' },
    context: { type: 'string', default: '1024' },
    // Length of a typical sequence (prompt + completion) in bytes, for the attention term.
    'text-bytes': { type: 'string', default: '4096' },
  },
});
const inputs = positionals.length > 0 ? positionals : DEFAULT_TOKENIZER_INPUTS;
const files = expandInputs(inputs, REPO_ROOT);
// Every fifth file (by path hash) is held out, so the figures are on text the merges never saw.
const heldOut = (f: string): boolean => createHash('sha256').update(f).digest()[0]! % 5 === 0;
let trainFiles = files.filter((f) => !heldOut(f));
let testFiles = files.filter(heldOut);
if (testFiles.length === 0 || trainFiles.length === 0) [trainFiles, testFiles] = [files.slice(0, -1), files.slice(-1)];
const train = readDocuments(trainFiles, REPO_ROOT);
const test = readDocuments(testFiles, REPO_ROOT);
const testBytes = test.reduce((n, d) => n + Buffer.byteLength(d), 0);
const trainBytes = train.reduce((n, d) => n + Buffer.byteLength(d), 0);
console.log(`inputs: ${inputs.join(' ')}`);
console.log(`train ${trainFiles.length} files ${(trainBytes / 1e6).toFixed(2)} MB; held-out ${testFiles.length} files ${(testBytes / 1e6).toFixed(2)} MB`);

const d = Number(values.width), L = Number(values.layers), ctx = Number(values.context), N = Number(values['text-bytes']);
// Forward FLOPs of a Llama-style decoder per byte of a sequence of N bytes = T = N/bpt tokens:
// per token 2 x 12 L d^2 (4d^2 attention projections + a d x 8d/3 x 3 SwiGLU, per layer), plus
// attention scores and mixing over on average T/2 keys (2 x 2 L d T/2), plus the output layer
// (2 d V); times T tokens, over N bytes. Attention is the term quadratic in sequence length.
const flopsPerByte = (V: number, bpt: number): number => {
  const T = N / bpt;
  return ((2 * 12 * L * d * d + 2 * L * d * T + 2 * d * V) * T) / N;
};

interface Row { kind: string; vocab: number; trainMs: number; bytesPerToken: number; coldMBps: number; warmMBps: number; flopsPerByte: number; ctxBytes: number }
const rows: Row[] = [];
const measure = (tok: Tokenizer, trainMs: number): void => {
  let t0 = performance.now();
  let tokens = 0;
  for (const doc of test) tokens += tok.encode(doc).length;
  const cold = performance.now() - t0;
  t0 = performance.now();
  for (const doc of test) tok.encode(doc);
  const warm = performance.now() - t0;
  const broken = test.filter((doc) => tok.decode(tok.encode(doc)) !== doc).length;
  if (broken > 0) {
    console.error(`${tok.name}: ${broken} held-out documents do not round-trip`);
    process.exitCode = 1;
  }
  const bpt = testBytes / tokens;
  rows.push({
    kind: tok.kind, vocab: tok.vocabSize, trainMs: Math.round(trainMs), bytesPerToken: +bpt.toFixed(3),
    coldMBps: +(testBytes / 1e3 / cold).toFixed(2), warmMBps: +(testBytes / 1e3 / warm).toFixed(2),
    flopsPerByte: Math.round(flopsPerByte(tok.vocabSize, bpt)), ctxBytes: Math.round(ctx * bpt),
  });
};
measure(byteTokenizer(), 0);
for (const size of values.sizes.split(',').map(Number)) {
  const t0 = performance.now();
  const json = trainTokenizer(train, { vocabSize: size });
  measure(new Tokenizer(json), performance.now() - t0);
}
const base = rows[0]!;
console.log(`reference decoder: d=${d} L=${L}; sequences of ${N} bytes; context ${ctx} tokens`);
console.log('kind  vocab  train_ms  bytes/tok  encode_MB/s(cold,warm)  MFLOP/byte  vs_bytes  context_bytes');
for (const r of rows) {
  console.log(
    `${r.kind.padEnd(5)} ${String(r.vocab).padStart(5)} ${String(r.trainMs).padStart(9)} ${r.bytesPerToken.toFixed(3).padStart(10)}` +
      ` ${r.coldMBps.toFixed(2).padStart(11)},${r.warmMBps.toFixed(2).padStart(6)}` +
      ` ${(r.flopsPerByte / 1e6).toFixed(3).padStart(16)} ${(r.flopsPerByte / base.flopsPerByte).toFixed(3).padStart(9)} ${String(r.ctxBytes).padStart(14)}`,
  );
}
console.log(JSON.stringify({ trainBytes, testBytes, model: { d, L, ctx, sequenceBytes: N }, rows }));
