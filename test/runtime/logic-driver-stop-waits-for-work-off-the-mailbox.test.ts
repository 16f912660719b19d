// runtime/logic-driver.ts: long work runs off the mailbox (events go on being handled meanwhile), its result comes
// back as an event, and stop() returns only once that work and the events it caused are handled.
import t from 'tap';
import { runLogic } from '../../runtime/logic-driver.js';

t.test('later() runs off the mailbox and stop() waits for it', async (t) => {
  const seen: string[] = [];
  let finish!: () => void;
  const long = new Promise<void>((r) => (finish = r));
  const driver = runLogic<string, string>({
    transition: (e) => (seen.push(e), e === 'train' ? ['train'] : e === 'trained' ? ['publish'] : []),
    perform: (f, d) => {
      if (f === 'train') d.later(async () => (await long, 'trained'));
      if (f === 'publish') d.later(async () => 'published');
    },
  });
  await driver.send('train');
  await driver.send('received');
  t.same(seen, ['train', 'received'], 'the mailbox is free while the work runs');
  let stopped = false;
  const stop = driver.stop().then(() => (stopped = true));
  await new Promise((r) => setImmediate(r));
  t.notOk(stopped, 'stop waits for the work in flight');
  finish();
  await stop;
  t.same(seen, ['train', 'received', 'trained', 'published'], 'results, and the work they started, are handled before stop returns');
});
