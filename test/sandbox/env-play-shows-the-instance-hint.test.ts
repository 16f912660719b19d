// `spade env play --hint` on a contract-v2 module shows the hint that reset() returned for that seed (marked as
// the instance's), not spec.hint; different seeds show their own hints.
import t from 'tap';
import { repoPath } from '../../runtime/paths.js';
import { envCommand } from '../../sandbox/cli-env.js';
import { io } from './cli-io.js';

const file = repoPath('test', 'fixtures', 'hints', 'secret-digit-v2.js');

t.test('play --hint shows the instance hint', async (t) => {
  const shown: string[] = [];
  for (const seed of ['1', '2', '3', '4']) {
    const x = io('5\n');
    t.equal(await envCommand(['play', file, '--seed', seed, '--hint'], x.streams), 0);
    const line = /^hint \(this instance\): (.*)$/m.exec(x.out());
    t.ok(line, `seed ${seed}: the instance hint is shown`);
    t.match(line?.[1], /^The digit is \d or \d; secret code s\d\.$/);
    t.notMatch(x.out(), /v1 fallback/, 'spec.hint is not shown');
    shown.push(line?.[1] ?? '');
  }
  t.ok(new Set(shown).size >= 2, 'seeds show their own hints');
});
