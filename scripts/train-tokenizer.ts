// Trains the byte-level BPE tokenizer on the project's text and writes its vocab JSON.
// Usage: node dist/scripts/train-tokenizer.js [--vocab 2048] [--out model/tokenizer/bpe-2048.json] [--name N] [input globs/paths...]
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_TOKENIZER_INPUTS, expandInputs, readDocuments, trainTokenizer } from '../model/index.js';
import { Tokenizer } from '../model/index.js';
import { REPO_ROOT } from '../runtime/paths.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { vocab: { type: 'string', default: '2048' }, out: { type: 'string' }, name: { type: 'string' } },
});
const vocabSize = Number(values.vocab);
const inputs = positionals.length > 0 ? positionals : DEFAULT_TOKENIZER_INPUTS;
const files = expandInputs(inputs, REPO_ROOT);
const docs = readDocuments(files, REPO_ROOT);
const started = performance.now();
const json = trainTokenizer(docs, { vocabSize, inputs, ...(values.name ? { name: values.name } : {}) });
const trainMs = performance.now() - started;
const out = values.out ?? join('model', 'tokenizer', `${json.name}.json`);
const outAbs = isAbsolute(out) ? out : join(REPO_ROOT, out);
mkdirSync(dirname(outAbs), { recursive: true });
// One merge pair per line keeps the file diffable while staying small.
const pairs: string[] = [];
for (let i = 0; i < json.merges.length; i += 2) pairs.push(`${json.merges[i]},${json.merges[i + 1]}`);
const text = JSON.stringify({ ...json, merges: [] }, null, 2).replace('"merges": []', `"merges": [\n    ${pairs.join(',\n    ')}\n  ]`);
writeFileSync(`${outAbs}.tmp`, text + '\n');
renameSync(`${outAbs}.tmp`, outAbs);

const tok = new Tokenizer(json);
const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d), 0);
const tokens = docs.reduce((n, d) => n + tok.encode(d).length, 0);
console.log(`files ${files.length}, ${bytes} bytes; vocab ${json.vocabSize} (${json.merges.length / 2} merges) in ${trainMs.toFixed(0)} ms`);
console.log(`training-set bytes/token ${(bytes / tokens).toFixed(3)}; wrote ${out}`);
