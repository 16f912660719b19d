// Test helper run as a child process: the learner role under an actor host on the given NATS server and state
// directory, printing one line per update ("update <n>", then the group round's weight hash when a third argument
// `group` makes it a learner-group member), so the parent can SIGKILL it at a chosen point.
import { createLearnerActor, type UpdateReport } from '../../../actors/learner/index.js';
import { openConnection } from '../../../runtime/connection.js';
import { ActorHost } from '../../../runtime/host.js';
import { FAST_DELIVERY, testConfig } from '../../helpers/nats.js';
import { learnerOptions } from './tiny.js';

const [url, stateDir, mode] = process.argv.slice(2);
const group = mode === 'group';
if (url === undefined || stateDir === undefined) {
  process.stdout.write('# learner-child.js is a helper process of sigkilled-learner-resumes-exactly-once.test.js\n');
  process.exit(0);
}
const config = await testConfig([url!], FAST_DELIVERY);
const conn = await openConnection(config.nats, 'learner-child');
const actor = createLearnerActor(learnerOptions({
  checkpoints: { dir: stateDir! },
  batching: { eta: 1000, iterationBatches: 0, minibatchTrajectories: 4 },
  cadence: { checkpointEvery: 2 },
  host: { lockTtlMs: 1_000 },
  ...(group ? { group: { enabled: group, roundTimeoutMs: 1_500 } } : {}),
}));
actor.events.on('update', (r: UpdateReport & { group?: { hash: string } }) => process.stdout.write(`update ${r.update}${r.group ? ` ${r.group.hash}` : ''}\n`));
const host = new ActorHost({ conn, config, hostId: group ? 'learner-b' : 'child', log: () => undefined });
await host.start([() => actor], ['learner']);
// SIGTERM drains like a host being stopped (the last update, a checkpoint, the acks); SIGKILL is the crash.
process.once('SIGTERM', () => void host.stop().finally(() => process.exit(0)));
process.stdout.write('started\n');
