// Every seed is demonstrated twice: unhinted (the oracle searches) and hinted (the hint is the oracle's third
// argument, so a hint-aware oracle copies the hidden state). On door-code the hinted oracle opens the door on its
// first try every time; on step-to-mark it walks straight to the mark. Real sandbox, library modules.
import t from 'tap';
import { SandboxPool } from '../../sandbox/index.js';
import { loadLibrary, oracleEpisodes } from '../../warmstart/index.js';

const library = loadLibrary();
const seeds = Array.from({ length: 12 }, (_, i) => i + 1);

t.test('hinted demonstrations use the hint', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 1000, wallClockKillMs: 10_000 });
  t.teardown(() => pool.close());
  const door = library.find((e) => e.name === 'door-code')!;
  const { episodes, stats } = await oracleEpisodes(pool, [door], seeds);
  t.equal(stats.played, 24, 'each seed played without and with the hint');
  t.equal(stats.mismatched, 0);
  const hinted = episodes.filter((e) => e.hinted);
  t.equal(hinted.length, 12, 'every hinted episode wins');
  t.ok(hinted.every((e) => e.turns.length === 1 && e.total === 1), 'hinted: the right code at the first try');
  const plain = episodes.filter((e) => !e.hinted);
  t.ok(plain.some((e) => e.turns.length > 1), 'unhinted: the oracle tries codes in turn');
  t.ok(stats.hintChanged >= 6, `the hint changed the play on ${stats.hintChanged} of 12 seeds`);

  const step = library.find((e) => e.name === 'step-to-mark')!;
  const walked = await oracleEpisodes(pool, [step], seeds);
  for (const e of walked.episodes.filter((x) => x.hinted)) {
    const mark = Number(/cell (\d+)/.exec(e.hint)![1]);
    t.same(e.turns.map((x) => x.action), [...Array(mark).fill('right'), 'stop'], `seed ${e.seed}: straight to cell ${mark}`);
  }
});
