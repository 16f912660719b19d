// The kit object is frozen: an environment cannot replace its helpers.
import t from 'tap';
import { kitContext } from './kit-vm.js';

const k = kitContext(7);

const run = (e: string): unknown => JSON.parse(JSON.stringify(k.run(e)));

t.test('kit is frozen', async (t) => {
  t.equal(run(`Object.isFrozen(kit)`), true);
  t.equal(run(`(() => { try { kit.pick = null; } catch (e) {} return typeof kit.pick; })()`), 'function');
});
