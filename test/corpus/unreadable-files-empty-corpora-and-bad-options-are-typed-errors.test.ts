// Missing or corrupt files, corpora with nothing usable and bad options each throw their own typed error, the
// options error naming the field.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCorpusEmptyError, isCorpusFileError, openCorpus } from '../../corpus/index.js';
import { isOptionsError } from '../../runtime/options.js';
import { prose, tempDir, writeJsonl } from './helpers.js';

const GOOD = (id: string): object => ({ id, text: prose(id, 250) });

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
