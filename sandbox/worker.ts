// Piscina worker: owns one Engine (one QuickJS WebAssembly instance) and serves reset, step and validate tasks.
// Errors cross back as plain WireError objects; the pool rebuilds the typed classes.
import { existsSync, readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { repoPath } from '../runtime/paths.js';
import { SharedCallWatch } from './call-watch.js';
import { Engine } from './engine.js';
import { toWireError } from './errors.js';
import { SpadeError } from '../runtime/spade-error.js';
import type { ResolvedSandboxOptions } from './options.js';
import type { WorkerBatch, WorkerReply, WorkerTask } from './wire.js';

interface SandboxWorkerData {
  options: ResolvedSandboxOptions;
  watch: SharedArrayBuffer;
}

const data = workerData as SandboxWorkerData;
const watch = new SharedCallWatch(data.watch);

function kitSource(o: ResolvedSandboxOptions): string | undefined {
  if (o.kitSource !== undefined) return o.kitSource;
  const path = repoPath('envs', 'kit.js');
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

const engineReady = Engine.create(data.options, kitSource(data.options), watch);

function serve(engine: Engine, task: WorkerTask): WorkerReply {
  try {
    switch (task.kind) {
      case 'reset':
        return { ok: true, value: engine.reset(task.hash, task.code, task.seed, task.episodeId) };
      case 'step':
        return { ok: true, value: engine.step(task.hash, task.code, task.seed, task.actions, task.episodeId) };
      case 'validate':
        return { ok: true, value: engine.validate(task.hash, task.code, task.options) };
    }
  } catch (err) {
    // Anything that is not one of our typed errors (a WebAssembly abort, a library assertion) may have left the
    // QuickJS instance unusable: recycle it.
    if (!(err instanceof SpadeError)) engine.poison();
    return { ok: false, error: toWireError(err) };
  }
}

export default async function handle(batch: WorkerBatch): Promise<WorkerReply[]> {
  const engine = await engineReady;
  const replies: WorkerReply[] = [];
  for (const task of batch.items) {
    watch.task = task.seq;
    const reply = serve(engine, task);
    // Recycle before the next item: after an OOM nothing else may run in this WebAssembly instance.
    const recycling = engine.maintain();
    if (recycling !== false && (await recycling)) reply.recycled = true;
    replies.push(reply);
  }
  return replies;
}
