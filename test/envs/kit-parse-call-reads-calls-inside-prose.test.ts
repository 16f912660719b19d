// The kit's parseCall, run from envs/kit.js in a Node vm, reads tool calls inside prose and tolerates non-JSON
// arguments.
import t from 'tap';
import { kitContext } from './kit-vm.js';

const k = kitContext(7);

const run = (e: string): unknown => JSON.parse(JSON.stringify(k.run(e)));

t.test('parseCall reads tool calls inside prose and tolerates non-JSON arguments', async (t) => {
  t.same(run(`kit.parseCall('Sure! \`ls({"path": "/srv"})\` next')`), { name: 'ls', args: { path: '/srv' } });
  t.same(run(`kit.parseCall('checkout()')`), { name: 'checkout', args: {} });
  t.same(run(`kit.parseCall('cat("/a/b (old).txt")')`), { name: 'cat', args: '/a/b (old).txt' });
  t.same(run(`kit.parseCall("go(north)")`), { name: 'go', args: 'north' });
  t.same(run(`kit.parseCall("say('hi there')")`), { name: 'say', args: 'hi there' });
  t.same(run(`kit.parseCall('api.get({"id": 3})')`), { name: 'api.get', args: { id: 3 } });
  t.equal(run(`kit.parseCall('I think (maybe) not')`), null);
  t.equal(run(`kit.parseCall('ls({"path": "/"')`), null);
  t.same(run(`kit.parseCalls('a(1) then b({"x": [1, 2]})').map((c) => c.name)`), ['a', 'b']);
});
