// bench:loop's arm figures: rates run from the first tick to the final line (start-up left out), the ratio is of the
// arms' medians, and a run whose metrics lack a final line or a tick is refused naming the arm.
import t from 'tap';
import { armRatios, armRunFigures, armSummary, LoopFiguresError } from '../../scripts/loop-arm-figures.js';

const line = (event: string, sec: number, episodes: number, updates: number) => ({
  event, ts: 1_000_000 + sec * 1000, agentEpisodes: episodes,
  learner: { updates, busyFraction: 0.5, stalenessMax: 2 },
  tokens: { agentShare: 0.9, total: 1000 },
});

t.test('arm rates count the steady state only, and a run without a final line or a tick is refused by name', async (t) => {
  // 30 s of start-up with 0 episodes, then 10 s to the first tick, then 100 s at 20 episodes/s and 30 updates/min.
  const lines = [line('tick', 40, 200, 5), line('iteration', 60, 600, 15), line('final', 140, 2200, 55)];
  const f = armRunFigures({ arm: 'spade', lines, wallSec: 150, cpuSec: 240, cores: 2 });
  t.equal(f.agentEpisodesPerSec, 20, 'episodes between the first tick and the final line, over that time');
  t.equal(f.updatesPerMin, 30, 'updates over the same window, per minute');
  t.equal(f.utilisation, 0.8, 'cpu seconds over wall × cores');
  t.equal(f.agentEpisodes, 2200);
  t.equal(f.agentShare, 0.9);

  const fixed = [10, 30, 20].map((eps) => ({ ...f, agentEpisodesPerSec: eps, updatesPerMin: eps * 2 }));
  const spade = [5, 6, 20].map((eps) => ({ ...f, agentEpisodesPerSec: eps, updatesPerMin: eps }));
  const s = armSummary(fixed);
  t.equal(s.agentEpisodesPerSec, 20, 'the median round');
  t.same(s.agentEpisodesPerSecRange, [10, 30]);
  const r = armRatios(fixed, spade);
  t.equal(r.spadeVsFixed, 6 / 20, 'ratio of the medians, not the median of the ratios');
  t.equal(r.updatesSpadeVsFixed, 6 / 40);
  t.same(r.pairs, [0.5, 0.2, 1], 'each round pair beside it');

  t.throws(() => armRunFigures({ arm: 'fixed', lines: lines.slice(0, 2), wallSec: 1, cpuSec: 1, cores: 2 }), { name: 'LoopFiguresError', message: /fixed run wrote no final/ });
  t.throws(() => armRunFigures({ arm: 'spade', lines: [line('final', 5, 10, 1)], wallSec: 1, cpuSec: 1, cores: 2 }), /spade run ended before its first tick/);
  t.throws(() => armRatios([], spade), LoopFiguresError);
});
