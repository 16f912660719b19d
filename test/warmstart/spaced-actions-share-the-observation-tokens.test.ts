// With spacedActions the oracle's every action is typed after a space, so a number the agent copies is made of the
// tokens the observation spells it with: door-code's code after its colour is " 4" "8" "2" "1" in the observation, and
// the spaced action encodes to the same ids where the bare one starts with a different token. The oracle still reads
// its own unspaced history (config-lookup's parses its earlier calls), the sandbox accepts the spaced actions, and
// the same episodes win as without the option. Real sandbox, library modules, the shipped tokenizer.
import t from 'tap';
import { SandboxPool } from '../../sandbox/index.js';
import { loadTokenizer } from '../../model/index.js';
import { loadLibrary, oracleEpisodes } from '../../warmstart/index.js';

const library = loadLibrary();
const seeds = Array.from({ length: 8 }, (_, i) => i + 1);
const named = (n: string) => library.find((e) => e.name === n)!;

t.test('spaced actions share the observation tokens', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 1000, wallClockKillMs: 10_000 });
  t.teardown(() => pool.close());
  const tok = loadTokenizer();
  const envs = ['door-code', 'ticket-close', 'config-lookup', 'step-to-mark'].map(named);
  const bare = await oracleEpisodes(pool, envs, seeds);
  const spaced = await oracleEpisodes(pool, envs, seeds, { spacedActions: true });
  t.same(spaced.stats, bare.stats, 'the same episodes played, kept and lost');
  t.equal(spaced.episodes.length, bare.episodes.length);
  spaced.episodes.forEach((e, i) => {
    const b = bare.episodes[i]!;
    t.same(e.turns.map((x) => x.action), b.turns.map((x) => ` ${x.action}`), `${e.env} seed ${e.seed}: each action is the bare one after a space`);
    t.same(e.turns.map((x) => x.observation), b.turns.map((x) => x.observation), `${e.env} seed ${e.seed}: the same observations`);
  });

  const door = spaced.episodes.find((e) => e.env === 'door-code' && e.hinted)!;
  const code = door.turns[0]!.action.trim();
  t.match(code, /^\d{4}$/, 'the hinted door-code oracle types the 4-digit code');
  const observed = tok.encode(door.turns[0]!.observation);
  const has = (ids: number[]) => observed.some((_, i) => ids.every((id, j) => observed[i + j] === id));
  t.ok(has(tok.encode(` ${code}`)), 'the spaced action is a run of the observation\'s tokens');
  t.notOk(has(tok.encode(code)), 'the bare action is not: its first token differs');
});
