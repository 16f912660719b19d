// The corpus build reads a dictd database (gzipped .dict.dz plus base64 .index) entry by entry, with each
// entry's headwords and no metadata entries.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readDictd } from '../../corpus/build/dictd.js';
import { tempDir } from './helpers.js';

t.test('dictd database', async (t) => {
  const dir = tempDir(t);
  const body = 'alpha\n   first entry text\n\nbeta\n   second\n';
  const b64 = (n: number): string => {
    const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    let s = '';
    do (s = A[n % 64] + s, (n = Math.floor(n / 64))); while (n > 0);
    return s;
  };
  const second = body.indexOf('beta');
  writeFileSync(join(dir, 'd.dict.dz'), gzipSync(body));
  writeFileSync(join(dir, 'd.index'), [
    `00-database-short\t${b64(0)}\t${b64(3)}`, `alpha\t${b64(0)}\t${b64(second)}`, `a\t${b64(0)}\t${b64(second)}`,
    `beta\t${b64(second)}\t${b64(body.length - second)}`,
  ].join('\n'));
  t.same(readDictd(join(dir, 'd.index'), join(dir, 'd.dict.dz')), [
    { headwords: ['alpha', 'a'], text: 'alpha\n   first entry text\n\n' },
    { headwords: ['beta'], text: 'beta\n   second\n' },
  ]);
});
