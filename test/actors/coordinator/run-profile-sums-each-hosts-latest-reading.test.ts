// The run's profile keeps each host's latest (cumulative) reading and sums hosts: CPU seconds and shares by phase,
// what no phase accounts for, and model GFLOP/s over the model phases' CPU; bench:loop's rounds merge by adding up.
import t from 'tap';
import { mergeProfiles, onProfileMetric, profileSummary, profileTable, type RunProfile } from '../../../actors/coordinator/run-profile.js';
import type { MetricBody } from '../../../runtime/message-types.js';

const metric = (host: string, name: string, value: number, tags: Record<string, number>): MetricBody =>
  ({ role: 'agent', host, ts: 0, name, value, tags: Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, String(v)])) });

t.test('latest reading per host, summed over hosts', async (t) => {
  const p: RunProfile = {};
  t.equal(profileSummary(p), null, 'no profile before a reading');
  t.equal(onProfileMetric(p, { ...metric('a', 'sample.tokens', 5, {}) }), false, 'other metrics are not profile readings');
  // Host a: an early reading, then the later one that replaces it.
  onProfileMetric(p, metric('a', 'profile.process', 1_000, { wallMs: 2_000, mainLoopBusy: 0.1 }));
  onProfileMetric(p, metric('a', 'profile.phase.decode', 500, { wallMs: 600, calls: 10, tokens: 40, flops: 1e9 }));
  onProfileMetric(p, metric('a', 'profile.process', 10_000, { wallMs: 20_000, mainLoopBusy: 0.2 }));
  onProfileMetric(p, metric('a', 'profile.phase.decode', 4_000, { wallMs: 5_000, calls: 100, tokens: 400, flops: 8e10 }));
  onProfileMetric(p, metric('a', 'profile.phase.sandbox', 1_000, { wallMs: 1_000, calls: 50, tokens: 0, flops: 0 }));
  // Host b: a trainer whose thread CPU could not be read (NaN): its wall time stands in.
  onProfileMetric(p, metric('b', 'profile.process', 10_000, { wallMs: 20_000, mainLoopBusy: 0.05 }));
  onProfileMetric(p, { ...metric('b', 'profile.phase.train', 0, { wallMs: 6_000, calls: 3, tokens: 3_000, flops: 4e11 }), value: Number.NaN });
  const s = profileSummary(p)!;
  t.equal(s.hosts, 2);
  t.equal(s.cpuSec, 20);
  t.equal(s.phases.decode!.cpuSec, 4, 'the latest reading of host a');
  t.equal(s.phases.decode!.share, 0.2);
  t.equal(s.phases.decode!.gflopsPerCpuSec, 20);
  t.equal(s.phases.train!.cpuSec, 6, 'wall time where CPU is unknown');
  t.equal(s.phases.sandbox!.gflopsPerCpuSec, null, 'no FLOPs counted outside the model');
  t.equal(s.otherSec, 9, '20 s of CPU less 4 + 1 + 6');
  t.equal(s.modelGflopsPerCpuSec, (80 + 400) / 10);
  t.equal(s.mainLoopBusy, (0.2 + 0.05) / 2, 'main threads busy: the mean over hosts');
  t.match(profileTable(s).join('\n'), /\| train \| 6\.0 \| 30\.0% \| 3 \| 3000 \| 66\.7 \|[\s\S]*\| other \(bus, actors, GC, onnxruntime pool threads, …\) \| 9\.0 \| 45\.0% \| \| \| main thread busy 12\.5% \|/);

  const two = mergeProfiles([s, null, s])!;
  t.equal(two.cpuSec, 40, 'rounds add up');
  t.equal(two.phases.decode!.calls, 200);
  t.equal(two.phases.decode!.share, 0.2, 'shares stay');
  t.equal(two.modelGflopsPerCpuSec, s.modelGflopsPerCpuSec);
  t.equal(two.mainLoopBusy, s.mainLoopBusy, 'main-thread busy: the mean over rounds');
  t.equal(mergeProfiles([null]), null);
});
