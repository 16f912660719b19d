// runtime/logic-driver.ts: an event sent while another's slow effect is performed waits for it, so the logic sees
// events one at a time in arrival order; an idle driver handles an event synchronously.
import t from 'tap';
import { runLogic } from '../../runtime/logic-driver.js';

t.test('events are handled one at a time, in arrival order', async (t) => {
  const seen: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const driver = runLogic<string, { type: 'slow' | 'note'; tag: string }>({
    transition: (e) => (seen.push(`in:${e}`), [{ type: e === 'a' ? 'slow' : 'note', tag: e }]),
    perform: async (f) => {
      if (f.type === 'slow') await gate;
      seen.push(`out:${f.tag}`);
    },
  });
  const a = driver.send('a');
  t.same(seen, ['in:a'], 'an idle driver handles the event at once');
  const b = driver.send('b');
  const c = driver.send('c');
  await new Promise((r) => setImmediate(r));
  t.same(seen, ['in:a'], 'b and c wait for a\'s effects');
  release();
  await Promise.all([a, b, c]);
  t.same(seen, ['in:a', 'out:a', 'in:b', 'out:b', 'in:c', 'out:c']);

  const sync: string[] = [];
  const plain = runLogic<number, number>({ transition: (n) => [n * 2], perform: (f) => void sync.push(String(f)) });
  void plain.send(1);
  void plain.send(2);
  t.same(sync, ['2', '4'], 'synchronous effects keep the handling synchronous');
  await driver.stop();
  await plain.stop();
});
