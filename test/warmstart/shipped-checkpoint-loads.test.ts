// The shipped base checkpoint (model/checkpoints/base) loads with the decoder's own shape table, its vocab is the
// shipped tokenizer's, and its context holds a fitted designer prompt with the longest editable parent plus a child as long.
import t from 'tap';
import { existsSync } from 'node:fs';
import { loadCheckpoint, loadTokenizer, parameterShapes, validateDecoderConfig } from '../../model/index.js';
import { newMemoryEntry } from '../../actors/loop/memory/memory-entry.js';
import { loadLibrary } from '../../warmstart/index.js';
import { repoPath } from '../../runtime/paths.js';
import { buildDesignerPrompt, editableLibrary, loadLibraryEnvs, parentFits } from '../../actors/designer/index.js';

const dir = repoPath('model', 'checkpoints', 'base');

t.test('the base checkpoint loads and matches the tokenizer', { skip: !existsSync(dir) && 'no shipped checkpoint yet' }, async (t) => {
  const tok = loadTokenizer();
  const ck0 = await loadCheckpoint(dir, { optimizer: false });
  const config = validateDecoderConfig(ck0.config.model);
  const ck = await loadCheckpoint(dir, { shapes: parameterShapes(config), optimizer: false });
  t.equal(config.vocab, tok.vocabSize, 'model vocab = shipped tokenizer vocab');
  t.equal(ck.tokenizer.vocabSize, tok.vocabSize);
  t.equal(ck.config.tokenizer.sha256, ck0.config.tokenizer.sha256);
  const library = loadLibrary();
  const parents = editableLibrary(loadLibraryEnvs(), parentFits({ format: tok, contextLength: config.contextLength }));
  t.ok(parents.length >= 5, `${parents.length} editable parents`);
  const parent = [...parents].sort((p, q) => tok.encode(q.code).length - tok.encode(p.code).length)[0]!;
  const longest = tok.encode(parent.code).length;
  const doc = 'Prose of many short words, a b c d e f g. '.repeat(20);
  // The longest memory lines: the designer drops memory, then document, before it drops the parent.
  const memory = [...library].sort((p, q) => q.spec.description.length - p.spec.description.length).slice(0, 3)
    .map((e) => newMemoryEntry({ envId: e.name, name: e.spec.name, description: e.spec.description, family: e.family, codeHash: 'h', parents: [], iteration: 0, source: 'library' }));
  const fitted = buildDesignerPrompt({ format: tok, contextLength: config.contextLength }, { doc, memory, docChars: 600, maxTokens: longest + 1, parent: parent.code });
  t.ok(fitted.parent, `the longest parent (${parent.name}, ${longest} tokens) stays in the prompt`);
  t.ok(fitted.tokens.length + longest + 1 <= config.contextLength,
    `context ${config.contextLength} holds the fitted prompt (${fitted.tokens.length} tokens, ${fitted.memory.length} memory lines) and a child as long`);
});
