// A module the sandbox rejects, or a path that cannot be read, cannot be trained on or scored: the probe refuses it
// before playing anything, with a typed error that names the file.
import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProbe, validateProbeOptions, isProbeModuleError } from '../../probe/index.js';
import { repoPath } from '../../runtime/paths.js';

t.test('a module that fails validation is refused, naming its file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'spade-probe-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const bad = join(dir, 'bad.js');
  await writeFile(bad, 'export const spec = {};\n');
  const err = await runProbe(validateProbeOptions({ modules: [bad], checkpoint: repoPath('model', 'checkpoints', 'base'), threads: 1 })).then(() => null, (e: unknown) => e);
  t.ok(isProbeModuleError(err), `a ProbeModuleError (got ${String(err)})`);
  t.equal(isProbeModuleError(err) && err.file, bad);
  t.match(String((err as Error).message), /bad\.js does not validate/);
  const missing = join(dir, 'missing.js');
  const gone = await runProbe(validateProbeOptions({ modules: [missing], checkpoint: repoPath('model', 'checkpoints', 'base'), threads: 1 })).then(() => null, (e: unknown) => e);
  t.ok(isProbeModuleError(gone) && gone.file === missing, `a path that cannot be read is refused, naming it (got ${String(gone)})`);
});
