// The probe's run: score the start weights on the shipped modules, train synchronously and on-policy (each iteration:
// pick groups, play k episodes per arm with the current weights through the loop's own agent episode, label them as
// the evaluator does, one PolicyTrainer update, weights straight to the sampler), score the end weights on the same
// seeds. With the settings curriculum, groups are replays of the buffer's settings (by learnability) and new
// children of them; without it, the shipped modules every iteration.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { planEpisodes, playEpisode, type EpisodePlan } from '../actors/agent/index.js';
import { agentAdvantages, mean, validateEvaluatorOptions } from '../actors/evaluator/index.js';
import { PolicyTrainer, trajectoryRows } from '../actors/learner/index.js';
import { PolicyService, validateLoopOptions, type AcceptedEnv, type Episode, type Labeled } from '../actors/loop/index.js';
import { moduleFiles } from '../eval/index.js';
import { AdamW, ModelSession, loadModel, parameterShapes, saveCheckpoint } from '../model/index.js';
import { SandboxPool, makeRandom } from '../sandbox/index.js';
import { ProbeModuleError } from './errors.js';
import { probeGain, type Gain } from './gain.js';
import type { ProbeOptions } from './options.js';
import { SettingsBuffer, type BufferEntry } from './settings-buffer.js';
import { childSetting, rootSetting, settingKey, type Setting } from './settings.js';

export interface ProbeLine {
  iteration: number;
  seconds: number;
  groups: number;
  newSettings: number;
  rejected: number;
  returnNoHint: number;
  returnHint: number;
  rows: number;
  clipFraction?: number;
  gradNorm?: number;
  nll?: number;
  /** With --kl: the update's mean k3 estimate of KL to the start weights. */
  kl?: number;
}

export interface ProbeResult extends Gain {
  episodes: number;
  evalEpisodes: number;
  updates: number;
  seconds: number;
  /** Each shipped module's no-hint returns on the scoring seeds (seed 900000000 + i), before and after. */
  returns: { before: Record<string, number[]>; after: Record<string, number[]> };
  settingsTried: number;
  /** Every setting the run played, evicted ones too, with its visits and its first and last groups' no-hint returns. */
  played: Array<{ key: string; visits: number; firstNoHint: number; lastNoHint: number }>;
  settingsRejected: number;
  /** The buffer at the end: every setting still held, with its score and last returns. */
  settings: Array<{ key: string; visits: number; score: number; returnNoHint: number; returnHint: number }>;
  curve: ProbeLine[];
}

/** The modules under each given file or directory (kit.js skipped, as in a suite); an unreadable path names itself. */
function probeFiles(paths: readonly string[]): string[] {
  return paths.flatMap((p) => {
    try {
      return moduleFiles(p);
    } catch (err) {
      throw new ProbeModuleError(`${p} cannot be read: ${(err as Error).message}`, p, err);
    }
  });
}

export async function runProbe(o: ProbeOptions, onLine: (l: ProbeLine) => void = () => {}): Promise<ProbeResult> {
  const t0 = performance.now();
  const deadline = o.minutes === undefined ? Infinity : t0 + o.minutes * 60_000;
  const files = probeFiles(o.modules);
  const loop = validateLoopOptions({});
  loop.agent = { ...loop.agent, temperature: o.temperature };
  const sandbox = new SandboxPool({ workers: 1, callTimeoutMs: 200, wallClockKillMs: 5000 });
  const policy = await PolicyService.open({ policy: { ...loop.policy, threads: o.threads, checkpoint: resolve(o.checkpoint), missingCheckpoint: 'fail', weightSync: false }, conn: null });
  const ck = await loadModel(resolve(o.checkpoint));
  const session = await ModelSession.create(ck.model, { graphs: ['train', 'score'], intraOpNumThreads: o.threads, allowSpinning: false });
  try {
    const envOf = async (s: Setting, file: string, refuse = false): Promise<AcceptedEnv | null> => {
      const r = await sandbox.validate(s.code, { seeds: 8 });
      if (refuse && (!r.ok || !r.spec)) throw new ProbeModuleError(`${file} does not validate (stage ${r.failed ?? 'spec'})`, file);
      if (!r.ok || !r.spec) return null;
      const envId = `probe-${settingKey(s)}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 120);
      return { envId, jobId: 'probe', iteration: 0, code: s.code, codeHash: r.codeHash, spec: r.spec, family: 'unknown', parents: [file], validation: { ms: 0 } } as AcceptedEnv;
    };
    // The shipped modules: the families' roots, and what the probe is scored on.
    const roots: Array<{ name: string; file: string; setting: Setting; env: AcceptedEnv }> = [];
    for (const file of files) {
      const code = await readFile(file, 'utf8');
      const name = /^ {2}name: '([a-z0-9-]+)'/m.exec(code)?.[1] ?? file;
      const setting = rootSetting(name, code) ?? { family: name, knobs: {}, code };
      roots.push({ name, file, setting, env: (await envOf(setting, file, true))! });
    }
    const play = (env: AcceptedEnv, plans: EpisodePlan[], attempt: string): Promise<Episode[]> =>
      Promise.all(plans.map((p) => playEpisode(env, p, { policy, sandbox, options: loop }, attempt)));
    // Fresh seeds far from every training seed; the no-hint arm only (the figure is the no-hint return).
    const score = async (tag: string): Promise<Record<string, number[]>> => {
      const out: Record<string, number[]> = {};
      for (const r of roots) {
        const plans = Array.from({ length: o.evalSeeds }, (_, i) => ({ trajId: `${r.env.envId}/e${i}`, hinted: false, seed: 900_000_000 + i }));
        out[r.name] = (await play(r.env, plans, tag)).map((e) => e.return);
      }
      return out;
    };
    const tScore = performance.now();
    const before = await score('before');
    const scoreMs = performance.now() - tScore;

    const random = makeRandom(o.seed);
    const buffer = new SettingsBuffer(o.buffer);
    const envs = new Map<string, AcceptedEnv>();
    for (const r of roots) envs.set(buffer.add(r.setting, true).key, r.env);
    const trainer = new PolicyTrainer(session, ck.params, new AdamW({ schedule: { peakLr: o.lr, warmupSteps: 5, decaySteps: 100_000, minLr: o.lr / 10 }, weightDecay: 0, maxGradNorm: 1 }), {
      kind: o.objective, clipEps: 0.2, tisCap: 2, epochs: o.epochs, microBatchTokens: 2048, sampleTemperature: o.sampleTemperature,
      // The reference is a copy of the start weights: the optimizer changes ck.params in place.
      ...(o.kl > 0 ? { kl: { beta: o.kl, reference: new Map([...ck.params].map(([n, w]) => [n, w.slice()])) } } : {}),
    });
    const evaluator = validateEvaluatorOptions({ agentEpisodes: o.hinted ? 'all' : 'no-hint', agentAdvantage: o.advantage });
    const curve: ProbeLine[] = [];
    const played = new Map<string, ProbeResult['played'][number]>();
    let episodes = 0, updates = 0, tried = 0, rejected = 0, lastIterMs = 0;
    for (let it = 0; it < o.iterations; it++) {
      // Stop while the after-score still fits in the budget.
      if (performance.now() + lastIterMs + scoreMs * 1.2 > deadline) break;
      const tIt = performance.now();
      let picked: BufferEntry[];
      let fresh = 0, refused = 0;
      // The first iteration (and every one without the curriculum) plays the shipped modules: their scores seed the buffer.
      if (o.curriculum === 'none' || it === 0) picked = [...buffer.entries.values()].filter((e) => e.root);
      else {
        const anchors = o.anchor ? [...buffer.entries.values()].filter((e) => e.root) : [];
        picked = [...anchors, ...buffer.pick(o.slots - o.children, it, random, [...buffer.entries.values()].filter((e) => !anchors.includes(e)))];
        for (let c = 0; c < o.children; c++) {
          const fam = roots[Math.floor(random() * roots.length)]!;
          const parent = buffer.pick(1, it, random, buffer.family(fam.name))[0]!;
          const child = childSetting(parent.setting, fam.setting, random, { spread: o.spread });
          if (!child || buffer.entries.has(settingKey(child))) continue;
          tried++;
          const env = await envOf(child, fam.file);
          if (!env) { rejected++; refused++; continue; }
          const e = buffer.add(child);
          envs.set(e.key, env);
          picked.push(e);
          fresh++;
        }
      }
      const groups = await Promise.all(picked.map(async (e, slot) => {
        const plans = planEpisodes({ env: envs.get(e.key)!, k: o.k, seedBase: 1_000_000 * o.seed + (it * (o.slots + roots.length) + slot) * o.k } as Parameters<typeof planEpisodes>[0]);
        return play(envs.get(e.key)!, o.hinted ? plans : plans.filter((p) => !p.hinted), `i${it}`);
      }));
      episodes += groups.reduce((n, g) => n + g.length, 0);
      const labeled: Labeled[] = groups.flatMap((eps) => agentAdvantages(eps, evaluator).map(({ episode, advantage }) => ({ trajId: episode.trajId, role: 'agent' as const, samples: episode.turns, advantage, reward: episode.return })));
      const rows = labeled.filter((l) => l.advantage !== 0).flatMap((l) => trajectoryRows(l, { contextLength: ck.model.contextLength, vocab: ck.model.vocab }));
      const all = groups.flat();
      const line: ProbeLine = {
        iteration: it, seconds: 0, groups: groups.length, newSettings: fresh, rejected: refused, rows: rows.length,
        returnNoHint: mean(all.filter((e) => !e.hinted).map((e) => e.return)), returnHint: mean(all.filter((e) => e.hinted).map((e) => e.return)),
      };
      if (rows.length > 0) {
        const u = await trainer.update(rows);
        updates++;
        Object.assign(line, { clipFraction: u.clipFraction, gradNorm: u.gradNorm, nll: u.byRole.agent.entropy, ...(u.kl !== undefined ? { kl: u.kl } : {}) });
        policy.setWeights(new Map([...trainer.weights].map(([n, w]) => [n, w.slice()])), updates);
      }
      picked.forEach((e, i) => {
        const r = played.get(e.key) ?? { key: e.key, visits: 0, firstNoHint: NaN, lastNoHint: NaN };
        const noHint = mean(groups[i]!.filter((x) => !x.hinted).map((x) => x.return));
        played.set(e.key, { ...r, visits: r.visits + 1, firstNoHint: r.visits === 0 ? noHint : r.firstNoHint, lastNoHint: noHint });
      });
      picked.forEach((e, i) => buffer.observe(e.key, groups[i]!.filter((x) => !x.hinted).map((x) => x.return), groups[i]!.filter((x) => x.hinted).map((x) => x.return), it));
      for (const gone of buffer.evict()) envs.delete(gone.key);
      lastIterMs = performance.now() - tIt;
      line.seconds = +((performance.now() - t0) / 1000).toFixed(1);
      curve.push(line);
      onLine(line);
    }
    const after = await score('after');
    if (o.save) {
      const config = JSON.parse(await readFile(join(resolve(o.checkpoint), 'config.json'), 'utf8')) as { model: Record<string, unknown> };
      await saveCheckpoint(resolve(o.save), {
        model: config.model, params: trainer.weights, shapes: parameterShapes(ck.model), tokenizer: ck.codec as Parameters<typeof saveCheckpoint>[1]['tokenizer'],
        policyVersion: updates, step: ck.step + updates,
      });
    }
    return {
      ...probeGain(before, after), episodes, evalEpisodes: 2 * roots.length * o.evalSeeds, updates, seconds: Math.round((performance.now() - t0) / 1000),
      returns: { before, after }, settingsTried: tried, settingsRejected: rejected, played: [...played.values()], curve,
      settings: [...buffer.entries.values()].map((e) => ({ key: e.key, visits: e.visits, score: e.score, returnNoHint: e.returnNoHint, returnHint: e.returnHint })),
    };
  } finally {
    await policy.close();
    await session.release();
    await sandbox.close();
  }
}
