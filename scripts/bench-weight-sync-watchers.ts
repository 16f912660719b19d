// Watchers of `npm run bench:weight-sync` in a process of their own: samplers as on another host, which take the
// bus push or download, and whose checks run beside the publisher's upload instead of on its thread. Driven over
// node's IPC channel: { start: fromVersion } starts the watchers (each on its own connection, as the benchmark's
// in-process ones) and answers { ready }; each apply is reported as { watcher, version, t } with t in the epoch
// milliseconds of performance.timeOrigin + performance.now(), comparable with the parent's; { stop } stops them and
// answers { stopped }. Arguments: the server URL, the number of watchers, and `bus` (take the push) or `store`.
import { parameterShapes, validateDecoderConfig } from '../model/index.js';
import { WeightWatcher } from '../weight-sync/index.js';
import { loadConfig } from '../runtime/config.js';
import { openConnection } from '../runtime/connection.js';

const [url, count, path] = process.argv.slice(2);
if (url === undefined || process.send === undefined) {
  process.stderr.write('usage: bench-weight-sync-watchers.js <nats url> <watchers> <bus|store>, forked with an IPC channel\n');
  process.exit(2);
}
const send = (m: object): void => void process.send!(m);
const now = (): number => performance.timeOrigin + performance.now();
// The benchmark's model (scripts/bench-weight-sync.ts).
const model = validateDecoderConfig({ layers: 4, width: 256, heads: 8, contextLength: 512, vocab: 512 });
const shapes = parameterShapes(model);
const cfg = await loadConfig({ env: {}, set: [`nats.servers=${url}`] });
const conns = await Promise.all(Array.from({ length: Number(count ?? 3) }, (_, i) => openConnection(cfg.nats, `bench-remote-sampler-${i}`)));
let watchers: WeightWatcher[] = [];

process.on('message', (m: { start?: number; stop?: true; exit?: true }) => {
  void (async () => {
    if (m.start !== undefined) {
      watchers = await Promise.all(conns.map((c, i) => WeightWatcher.start(c, {
        shapes, modelConfig: model, fromVersion: m.start, live: path === 'bus',
        onWeights: (_w, version) => send({ watcher: i, version, t: now() }),
        onError: (err) => send({ error: err instanceof Error ? err.message : String(err) }),
      })));
      send({ ready: true });
    } else if (m.stop) {
      await Promise.all(watchers.map((w) => w.stop()));
      watchers = [];
      send({ stopped: true });
    } else if (m.exit) {
      await Promise.all(conns.map((c) => c.close()));
      process.exit(0);
    }
  })();
});
process.on('disconnect', () => process.exit(0)); // the benchmark is gone
send({ up: true });
