// The accounting log on reopen: update lines past the restored checkpoint are cut (their weights were rolled back),
// drop lines stay (drops are final), a torn last line is ignored, and the ids left are the final ones.
import t from 'tap';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readAccounting } from '../../../actors/learner/index.js';
import { ACCOUNTING_FILE, AccountingLog } from '../../../actors/learner/accounting.js';
import { tempDir } from '../../helpers/nats.js';

t.test('reopen at a checkpoint keeps what the weights hold and every drop', async (t) => {
  const dir = tempDir(t, 'spade-accounting-');
  const log = await AccountingLog.open(dir, 0);
  await log.applied(1, 0, ['a', 'b']);
  await log.dropped(1, 'stale', ['s1']);
  t.ok(log.final.has('s1'), 'a drop is final at once');
  t.notOk(log.final.has('a'), 'an applied id waits for its checkpoint');
  t.ok(log.seen('a'), 'but is already seen (a redelivery is not trained twice)');
  await log.sync();
  log.checkpointed();
  t.ok(log.final.has('a') && log.final.has('b'));
  await log.applied(2, 1, ['c']);
  await log.dropped(2, 'invalid', ['bad']);
  await log.applied(3, 2, ['d']);
  await log.close();
  await appendFile(join(dir, ACCOUNTING_FILE), '{"kind":"update","update":4,"vers'); // torn by a crash

  const reopened = await AccountingLog.open(dir, 1);
  t.same([...reopened.final].sort(), ['a', 'b', 'bad', 's1'], 'updates 2 and 3 rolled back; drops kept');
  t.notOk(reopened.seen('c'));
  await reopened.close();
  const lines = await readAccounting(dir);
  t.same(lines.map((l) => (l.kind === 'update' ? `u${l.update}` : `drop:${l.dropped.join(',')}`)), ['u1', 'drop:s1', 'drop:bad'], 'the file itself was cut');
});
