// SIGTERM drains: in-flight work finishes and its result is published, then the host exits 0.
import t from 'tap';
import { collectResults } from '../helpers/results.js';
import { hostWithJobInFlight } from './job-in-flight.js';

t.test('in-flight work completes during drain', async (t) => {
  const { conn, host } = await hostWithJobInFlight(t, 'long', 1_000);
  host.child.kill('SIGTERM');
  const exit = await host.exited;
  t.equal(exit.code, 0, 'exit 0');
  t.match(host.output(), /draining/);
  t.match(host.output(), /handled=1 /);
  const results = await collectResults(conn, 1, 5_000);
  t.equal(results[0]?.id, 'long', 'the result of the in-flight job was published before exit');
});
