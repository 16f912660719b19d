// The designer role: pulls design jobs and runs design() with the process's shared policy, a sandbox, the
// environment memory, the outcome records and the corpus, all opened in start() (or injected, for tests and embedding).
import { leasePolicyAndSandbox } from '../loop/leases.js';
import { awaitPolicyVersion } from '../loop/policy/await-version.js';
import type { Actor, ActorEnv } from '../../runtime/actor.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import { consumerFor } from '../../runtime/topology-decls.js';
import { openCorpus, type CorpusChunk } from '../../corpus/index.js';
import { DesignJob, type DesignJobBody } from '../loop/messages.js';
import { loopOptionsOf, validateLoopOptions, type LoopOptions, type LoopOptionsInput } from '../loop/options.js';
import { MemoryStore } from '../loop/memory/memory-store.js';
import type { Policy } from '../loop/policy/policy-service.js';
import type { Sandbox } from '../sandbox/sandbox-client.js';
import { unpackInts } from '../loop/packed.js';
import { metricOutputs } from '../loop/metrics.js';
import { design, envIdOf, type DesignerDeps, type GroundingDoc } from './design.js';
import { OutcomeStore } from './outcome-store.js';
import { loadLibraryEnvs, onlyModules } from './library-envs.js';
import { editableLibrary, parentFits } from './parent.js';
import { resolve } from 'node:path';

export interface DesignerActorOptions {
  /** Loop options; default: the config's `loop` section. */
  options?: LoopOptionsInput;
  policy?: Policy;
  sandbox?: Sandbox;
  /** Grounding documents; default: the corpus named by loop.corpus.paths. */
  corpus?: DesignerDeps['corpus'];
}

export interface DesignerStats {
  jobs: number;
  accepted: number;
  rejected: number;
  /** Rejections by failing stage. */
  stages: Record<string, number>;
  /** Jobs whose earlier attempt had claimed the outcome (republished; this attempt's sample discarded). */
  replayed: number;
}

export function groundingDoc(c: CorpusChunk): GroundingDoc {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const source = str(c.meta['source']), kind = str(c.meta['kind']);
  return { id: c.id, text: c.text, ...(source !== undefined ? { source } : {}), ...(kind !== undefined ? { kind } : {}) };
}

export type DesignerActor = Actor<DesignJobBody> & { readonly stats: DesignerStats };

export function createDesignerActor(opts: DesignerActorOptions = {}): DesignerActor {
  let deps: DesignerDeps | null = null;
  let log: (line: string) => void = () => undefined;
  const cleanups: Array<() => Promise<void>> = [];
  const stats: DesignerStats = { jobs: 0, accepted: 0, rejected: 0, stages: {}, replayed: 0 };

  async function open(env: ActorEnv): Promise<DesignerDeps> {
    const options: LoopOptions = opts.options ? validateLoopOptions(opts.options) : loopOptionsOf(env.config);
    const { policy, sandbox } = await leasePolicyAndSandbox(env, options, opts, cleanups);
    const memory = await MemoryStore.open(env.conn, env.log);
    await memory.sync(); // the complete view before the first job; the watch keeps it current
    await memory.watch();
    cleanups.push(() => memory.close());
    const outcomes = await OutcomeStore.open(env.conn);
    let corpus = opts.corpus ?? null;
    if (!corpus && !options.ablations.noCorpus && !options.ablations.fixedEnvs) {
      const c = await openCorpus(options.corpus.paths.length ? { paths: options.corpus.paths } : {});
      env.log(`designer: corpus of ${c.documentCount} documents, ${c.size} chunks`);
      corpus = (random) => groundingDoc(c.sample(random));
    }
    const library = options.ablations.fixedEnvs ? onlyModules(loadLibraryEnvs(options.library ? resolve(options.library) : undefined), options.modules) : undefined;
    // Parents come from the shipped library whatever loop.library names (that is the fixed baseline's pool): the base
    // designer learned to edit these, and without a parent it writes nothing it was taught. loop.modules narrows both.
    const parents = editableLibrary(onlyModules(loadLibraryEnvs(), options.modules), parentFits(policy));
    env.log(`designer: ${parents.length} editable library parents (${parents.map((p) => p.name).join(', ')})`);
    return { policy, sandbox, options, corpus, memory, outcomes, parents, ...(library ? { library } : {}) };
  }

  return {
    role: 'designer',
    input: { consumer: consumerFor('designer', SUBJECTS.jobDesign), type: DesignJob },
    stats,
    async start(env) {
      log = env.log;
      deps = await open(env);
    },
    async handle(job, ctx) {
      const t0 = performance.now();
      await awaitPolicyVersion(deps!.policy, job.minPolicyVersion, ctx.signal);
      const r = await design(job, deps!, ctx.signal);
      // Stats and metrics follow the outcome that stands (a replay's own sample was discarded, not published).
      stats.jobs++;
      if (r.replayed) {
        stats.replayed++;
        log(`designer: ${envIdOf(job.jobId)} was settled by an earlier attempt (${r.accepted ? 'accepted' : 'rejected'}); republishing it`);
      }
      if (r.accepted) stats.accepted++;
      else {
        stats.rejected++;
        if (r.stage) stats.stages[r.stage] = (stats.stages[r.stage] ?? 0) + 1;
      }
      const versions = r.sample ? unpackInts(r.sample.versions) : null;
      const metrics = metricOutputs('designer', ctx.hostId, envIdOf(job.jobId), {
        'job.ms': performance.now() - t0,
        accepted: r.accepted ? 1 : 0,
        ...(r.replayed ? { replayed: 1 } : {}),
        ...(versions ? { 'sample.tokens': versions.length, 'policy.version': versions.length ? versions[versions.length - 1]! : NaN } : {}),
      }, { iteration: String(job.iteration), ...(r.stage ? { stage: r.stage } : {}) });
      return [...r.outputs, ...metrics];
    },
    async stop() {
      for (const c of cleanups.splice(0).reverse()) await c();
    },
  };
}
