// runtime/logic-driver.ts: after() sends its event once the delay is over, a second after() with the same key replaces
// the first, every() repeats, and stop() cancels whatever is still due.
import t from 'tap';
import { runLogic } from '../../runtime/logic-driver.js';

t.test('delayed events fire, a keyed one is replaced, stop cancels the rest', async (t) => {
  const seen: string[] = [];
  let onEvent: (e: string) => void = () => undefined;
  const driver = runLogic<string, never>({ transition: (e) => (seen.push(e), onEvent(e), []), perform: () => undefined });
  const fired = new Promise<void>((r) => (onEvent = (e) => e === 'wake2' && r()));
  driver.after(5, 'wake1', 'wake');
  driver.after(10, 'wake2', 'wake');
  await fired;
  t.same(seen, ['wake2'], 'the keyed timer was replaced, not doubled');

  const ticks = new Promise<void>((r) => { let n = 0; onEvent = (e) => e === 'tick' && ++n === 3 && r(); });
  driver.every(2, 'tick');
  await ticks;
  t.ok(seen.filter((e) => e === 'tick').length >= 3, 'every() repeats');

  driver.after(20, 'late');
  await driver.stop();
  const count = seen.length;
  driver.after(1, 'after-stop');
  await new Promise((r) => setTimeout(r, 40));
  t.equal(seen.length, count, 'nothing fires after stop');
  t.notOk(seen.includes('late'), 'the pending delayed event was cancelled');
  t.ok(driver.stopped);
});
