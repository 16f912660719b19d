// A --set without `=` and a --config file that is not JSON are refused, saying which.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../runtime/config.js';
import { tempDir } from '../helpers/nats.js';

t.test('malformed --set and unloadable --config', async (t) => {
  await t.rejects(loadConfig({ set: ['no-equals-sign'], env: {} }), /expected path=value/);
  const dir = tempDir(t);
  const file = join(dir, 'bad.json');
  writeFileSync(file, '{ not json');
  await t.rejects(loadConfig({ file, env: {} }), /--config .*cannot load/);
});
