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
import type { WorkerReply, WorkerTask } from './wire.js';

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

export default async function handle(task: WorkerTask): Promise<WorkerReply> {
  const engine = await engineReady;
  watch.task = task.seq;
  let reply: WorkerReply;
  try {
    switch (task.kind) {
      case 'reset':
        reply = { ok: true, value: engine.reset(task.hash, task.code, task.seed, task.episodeId) };
        break;
      case 'step':
        reply = { ok: true, value: engine.step(task.hash, task.code, task.seed, task.actions, task.episodeId) };
        break;
      case 'validate':
        reply = { ok: true, value: engine.validate(task.hash, task.code, task.options) };
        break;
    }
  } catch (err) {
    // Anything that is not one of our typed errors (a WebAssembly abort, a library assertion) may have left the
    // QuickJS instance unusable: recycle it.
    if (!(err instanceof SpadeError)) engine.poison();
    reply = { ok: false, error: toWireError(err) };
  }
  if (await engine.maintain()) reply.recycled = true;
  return reply;
}
