// Test helper run as a child process: a Learner on the given NATS server and state directory that prints one line
// per update ("update <n> <ids>"), so the parent can SIGKILL it at a chosen point.
import { Learner } from '../../../actors/learner/index.js';
import { openConnection } from '../../../runtime/connection.js';
import { learnerOptions } from './tiny.js';

const [url, stateDir] = process.argv.slice(2);
if (url === undefined || stateDir === undefined) {
  process.stdout.write('# learner-child.js is a helper process of sigkilled-learner-resumes-exactly-once.test.js\n');
  process.exit(0);
}
const conn = await openConnection({ servers: [url!], embedded: { port: 0 } }, 'learner-child');
const learner = await Learner.create(
  { conn, hostId: 'child', ackWaitMs: 1_500, stateDir: stateDir!, onUpdate: (r) => process.stdout.write(`update ${r.update}\n`) },
  learnerOptions({ eta: 1000, minibatchTrajectories: 4, checkpointEvery: 2 }),
);
await learner.start();
process.stdout.write('started\n');
