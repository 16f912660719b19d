// The accounting log is read back from disk: a torn last line (a crash mid-write) is dropped, but a bad line with good
// lines after it (not JSON, or a line of the wrong shape) is corruption, refused with LearnerStateError naming the
// file and line, and the log is left as it is. It used to be cut at the bad line, forgetting every trajectory recorded
// after it, which the learner would then apply a second time.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { ACCOUNTING_FILE, AccountingLog } from '../../../actors/learner/accounting.js';
import { isLearnerStateError } from '../../../actors/learner/errors.js';
import { tempDir } from '../../helpers/nats.js';

const good = [
  JSON.stringify({ kind: 'update', update: 1, version: 0, applied: ['a', 'b'] }),
  JSON.stringify({ kind: 'drop', version: 1, reason: 'stale', dropped: ['c'] }),
  JSON.stringify({ kind: 'update', update: 2, version: 1, applied: ['d'] }),
];

t.test('a corrupt accounting line is refused, not cut', async (t) => {
  const torn = tempDir(t, 'spade-acct-');
  await writeFile(join(torn, ACCOUNTING_FILE), [...good, '{"kind":"upd'].join('\n'));
  const log = await AccountingLog.open(torn, 2);
  t.same([...log.final].sort(), ['a', 'b', 'c', 'd'], 'a torn last line is dropped, the rest kept');
  t.same(log.droppedBy, { stale: 1, invalid: 0 });
  await log.close();
  t.equal(await readFile(join(torn, ACCOUNTING_FILE), 'utf8'), good.map((l) => `${l}\n`).join(''), 'and the file rewritten without it');

  const bad: Array<[string, string, RegExp]> = [
    ['not JSON', '{"kind":"update", "upd', /line 2: not JSON/],
    ['applied not a list of ids', JSON.stringify({ kind: 'update', update: 1, version: 0, applied: 'x' }), /line 2: an update line needs update, version/],
    ['a drop without a reason', JSON.stringify({ kind: 'drop', version: 0, dropped: ['z'] }), /line 2: a drop line needs version, reason/],
    ['an unknown kind', JSON.stringify({ kind: 'rewind', update: 0 }), /line 2: unknown kind "rewind"/],
  ];
  for (const [what, line, message] of bad) {
    const dir = tempDir(t, 'spade-acct-');
    const text = [good[0], line, good[1], good[2]].join('\n') + '\n';
    await writeFile(join(dir, ACCOUNTING_FILE), text);
    const err = await AccountingLog.open(dir, 2).then((l) => (void l.close(), null), (e: unknown) => e);
    t.ok(isLearnerStateError(err) && message.test(String(err)) && String(err).includes(ACCOUNTING_FILE), `${what}: ${String(err)}`);
    t.equal(await readFile(join(dir, ACCOUNTING_FILE), 'utf8'), text, `${what}: the log is left as it is`);
  }
});
