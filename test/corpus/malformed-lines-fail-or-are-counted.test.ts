// Malformed lines throw CorpusLineError naming file:line and the reason, or with onInvalid 'skip' are dropped and
// counted by reason; unreadable files, empty corpora and bad options have their own typed errors.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CorpusLineError, isCorpusEmptyError, isCorpusFileError, isCorpusLineError, openCorpus,
  type CorpusLineReason,
} from '../../corpus/index.js';
import { isOptionsError } from '../../runtime/options.js';
import { prose, tempDir, writeJsonl } from './helpers.js';

const GOOD = (id: string): object => ({ id, text: prose(id, 250) });

const CASES: [string, object | string, CorpusLineReason, RegExp][] = [
  ['bad JSON', '{"id": "x", "text": ', 'bad-json', /not valid JSON/],
  ['array line', '[1, 2]', 'not-object', /one JSON object/],
  ['missing text', { id: 'x' }, 'missing-text', /missing field "text"/],
  ['non-string text', { id: 'x', text: 42 }, 'bad-text', /"text" must be a string/],
  ['missing id', { text: 'hello' }, 'missing-id', /missing field "id"/],
  ['numeric id', { id: 7, text: prose('n', 250) }, 'bad-id', /"id" must be a non-empty string \(got number\)/],
  ['empty id', { id: '', text: prose('n', 250) }, 'bad-id', /non-empty string/],
  ['duplicate id', GOOD('g1'), 'duplicate-id', /already used/],
  ['negative weight', { id: 'w', text: prose('w', 250), weight: -1 }, 'bad-weight', /finite number >= 0/],
];

for (const [name, line, reason, message] of CASES) {
  t.test(`${name}: fail names file:line, skip counts it`, async (t) => {
    const dir = tempDir(t);
    const file = writeJsonl(join(dir, 'c.jsonl'), [GOOD('g1'), '', line, GOOD('g2')]);
    const err = await openCorpus({ paths: [file], weightField: 'weight' }).then(() => undefined, (e: unknown) => e);
    t.ok(isCorpusLineError(err), 'typed error');
    const e = err as CorpusLineError;
    t.equal(e.file, file);
    t.equal(e.line, 3, 'blank lines count toward line numbers');
    t.equal(e.reason, reason);
    t.match(e.message, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: `));
    t.match(e.message, message);

    const corpus = await openCorpus({ paths: [file], weightField: 'weight', onInvalid: 'skip' });
    t.same([...corpus].map((c) => c.id), ['g1', 'g2']);
    t.equal(corpus.stats.skipped, 1);
    t.same(corpus.stats.skippedByReason, { [reason]: 1 });
    t.equal(corpus.stats.examples[0]?.line, 3);
  });
}

t.test('skip counts several reasons across files', async (t) => {
  const dir = tempDir(t);
  writeJsonl(join(dir, 'a.jsonl'), ['nope', GOOD('a'), '{}', 'null']);
  writeJsonl(join(dir, 'b.jsonl.gz'), [GOOD('a'), GOOD('b'), '"str"']);
  const corpus = await openCorpus({ paths: [dir], onInvalid: 'skip' });
  t.same([...corpus].map((c) => c.id), ['a', 'b']);
  t.same(corpus.stats.skippedByReason, { 'bad-json': 1, 'missing-id': 1, 'not-object': 2, 'duplicate-id': 1 });
  t.equal(corpus.stats.skipped, 5);
  t.equal(corpus.stats.examples.find((e) => e.reason === 'duplicate-id')?.file, join(dir, 'b.jsonl.gz'));
});

t.test('file errors, empty corpora and bad options', async (t) => {
  const dir = tempDir(t);
  const missing = join(dir, 'missing.jsonl');
  const e1 = await openCorpus({ paths: [missing] }).catch((e: unknown) => e);
  t.ok(isCorpusFileError(e1), 'missing path');
  t.match((e1 as Error).message, missing);

  const corrupt = join(dir, 'bad.jsonl.gz');
  writeFileSync(corrupt, 'this is not gzip at all');
  const e2 = await openCorpus({ paths: [corrupt] }).catch((e: unknown) => e);
  t.ok(isCorpusFileError(e2), 'corrupt gzip');
  t.match((e2 as Error).message, /cannot be read as gzip/);

  const empty = writeJsonl(join(dir, 'empty.jsonl'), ['', { id: 's', text: 'too short' }]);
  const e3 = await openCorpus({ paths: [empty] }).catch((e: unknown) => e);
  t.ok(isCorpusEmptyError(e3), 'nothing usable');
  t.match((e3 as Error).message, /1 too short/);

  const zero = writeJsonl(join(dir, 'zero.jsonl'), [{ ...GOOD('z'), weight: 0 }]);
  t.ok(isCorpusEmptyError(await openCorpus({ paths: [zero], weightField: 'weight' }).catch((e: unknown) => e)), 'all weights zero');

  const bad: [object, string][] = [
    [{ paths: [] }, 'paths'], [{ paths: [''] }, 'paths[0]'], [{ idField: '' }, 'idField'], [{ textField: 'id' }, 'textField'],
    [{ chunkChars: 1.5 }, 'chunkChars'], [{ chunkOverlap: 1500 }, 'chunkOverlap'], [{ minChars: -1 }, 'minChars'],
    [{ minChars: 5000 }, 'minChars'], [{ onInvalid: 'ignore' }, 'onInvalid'], [{ weightField: 3 }, 'weightField'], [{ chunkSize: 9 }, 'chunkSize'],
  ];
  for (const [opts, field] of bad) {
    const e = await openCorpus({ paths: [empty], ...opts }).catch((err: unknown) => err);
    t.ok(isOptionsError(e) && e.path === `options.${field}`, `${JSON.stringify(opts)} names ${field}`);
    t.match((e as Error).message, new RegExp(`^options\\.${field.replace(/[[\]]/g, '\\$&')}: (expected .+, got |unknown field)`));
  }
});
