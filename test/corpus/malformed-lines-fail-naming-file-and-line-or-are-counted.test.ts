// Each kind of malformed line throws CorpusLineError naming file:line and the reason, or with onInvalid 'skip'
// is dropped and counted by reason.
import t from 'tap';
import { join } from 'node:path';
import { CorpusLineError, isCorpusLineError, openCorpus, type CorpusLineReason } from '../../corpus/index.js';
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
