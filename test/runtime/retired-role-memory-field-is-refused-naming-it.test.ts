// `roles.<role>.memoryMb` was a config field nothing enforced; it is retired. Setting it — by --set, in a config file —
// fails at start with an OptionsError naming the field, saying why no per-role cap can hold and what to set instead
// (host.memoryBudgetMb); a run's own saved config.json written before the change still loads, for --resume.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import defaults from '../../cluster.config.js';
import { loadConfig } from '../../runtime/config.js';
import { isOptionsError } from '../../runtime/options.js';

const dir = mkdtempSync(join(tmpdir(), 'spade-retired-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** What loading fails with: the field it names and its message. */
async function refusal(load: () => Promise<unknown>): Promise<{ field?: string; message: string }> {
  try {
    await load();
    return { message: 'loaded' };
  } catch (err) {
    return isOptionsError(err) ? { field: err.path, message: err.message } : { message: `not an OptionsError: ${String(err)}` };
  }
}

t.test('the retired roles.<role>.memoryMb is refused in a config and dropped from a saved run', async (t) => {
  t.test('roles.<role>.memoryMb is refused naming the field and what to set instead', async (t) => {
    t.match(await refusal(() => loadConfig({ env: {}, set: ['roles.agent.memoryMb=512'] })),
      { field: 'config.roles.agent.memoryMb', message: /^config\.roles\.agent\.memoryMb: no longer a config field: it was never enforced.*set host\.memoryBudgetMb/ }, 'by --set');
    const file = join(dir, 'mine.json');
    writeFileSync(file, JSON.stringify({ roles: { learner: { concurrency: 1, threads: 2, memoryMb: 4096, taskTimeoutMs: 600_000 } } }));
    t.match(await refusal(() => loadConfig({ env: {}, file })), { field: 'config.roles.learner.memoryMb' }, 'in a config file');
    t.equal(await refusal(() => loadConfig({ env: {}, file, savedRun: false })).then((r) => r.field), 'config.roles.learner.memoryMb', 'a file not saved by a run is not forgiven');
  });

  t.test("a run's saved config.json from before still loads for --resume", async (t) => {
    const saved = join(dir, 'config.json');
    const roles = Object.fromEntries(Object.entries(defaults.roles).map(([r, rc]) => [r, { ...rc, memoryMb: 1024 }]));
    writeFileSync(saved, JSON.stringify({ ...defaults, roles }));
    const config = await loadConfig({ env: {}, file: saved, savedRun: true });
    t.same(Object.keys(config.roles.agent!).sort(), ['concurrency', 'taskTimeoutMs', 'threads'], 'the retired field is dropped');
    t.equal(config.roles.learner!.threads, defaults.roles.learner!.threads, 'the rest is kept');
  });
});
