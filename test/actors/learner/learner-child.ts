// Test helper run as a child process: the learner role under an actor host on the given NATS server and state
// directory, printing one line per update ("update <n>"), so the parent can SIGKILL it at a chosen point.
import { createLearnerActor, type UpdateReport } from '../../../actors/learner/index.js';
import { openConnection } from '../../../runtime/connection.js';
import { ActorHost } from '../../../runtime/host.js';
import { FAST_DELIVERY, testConfig } from '../../helpers/nats.js';
import { learnerOptions } from './tiny.js';

const [url, stateDir] = process.argv.slice(2);
if (url === undefined || stateDir === undefined) {
  process.stdout.write('# learner-child.js is a helper process of sigkilled-learner-resumes-exactly-once.test.js\n');
  process.exit(0);
}
const config = await testConfig([url!], FAST_DELIVERY);
const conn = await openConnection(config.nats, 'learner-child');
const actor = createLearnerActor(learnerOptions({ stateDir: stateDir!, eta: 1000, iterationBatches: 0, minibatchTrajectories: 4, checkpointEvery: 2, lockTtlMs: 1_000 }));
actor.events.on('update', (r: UpdateReport) => process.stdout.write(`update ${r.update}\n`));
await new ActorHost({ conn, config, hostId: 'child', log: () => undefined }).start([() => actor], ['learner']);
process.stdout.write('started\n');
