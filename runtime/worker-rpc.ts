// Requests to a worker thread and their replies, written once for the sampler and trainer threads: numbered
// requests, transfer lists, abort signals passed on, typed errors made by the caller, and a thread that dies failing
// every request it held (the caller may start a new one). serveRpc (worker-rpc-serve.ts) is the worker's side.
import { Worker } from 'node:worker_threads';
import { RuntimeError } from './errors.js';
import type { PlainError } from './plain-error.js';

/** The worker-RPC layer itself was misused (a request op the worker has no handler for, serving outside a worker). */
export class WorkerRpcError extends RuntimeError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super(message, { code: 'WORKER_RPC', data });
  }
}

/** The requests a worker answers: for each op, what is sent and what comes back. */
export type RpcCalls = Record<string, { body: unknown; value: unknown }>;

/** Main → worker. */
export type RpcRequest =
  | { rpc: 'call'; id: number; op: string; body: unknown }
  | { rpc: 'abort'; id: number }
  | { rpc: 'tell'; op: string; body: unknown }
  /** The worker ends itself with this exit code at its next turn of the event loop (see kill()). */
  | { rpc: 'exit'; code: number };

/** Worker → main; `meta` is what the worker adds to every reply (e.g. its step count). */
export type RpcReply =
  | { rpc: 'ready'; value: unknown }
  | { rpc: 'failed'; error: PlainError }
  | { rpc: 'reply'; id: number; ok: true; value: unknown; meta: unknown }
  | { rpc: 'reply'; id: number; ok: false; error: PlainError; meta: unknown };

/** What went wrong, for the caller to make its own typed error from. */
export type RpcFailure =
  /** The worker could not build what it serves (it sent `failed`). */
  | { kind: 'start-failed'; remote: PlainError }
  /** It sent something other than ready or failed before it was ready. */
  | { kind: 'not-ready'; message: unknown }
  | { kind: 'crashed'; starting: boolean; cause: Error }
  /** `closing`: close() had been called. */
  | { kind: 'exited'; starting: boolean; code: number; closing: boolean }
  /** A request threw on the worker. */
  | { kind: 'request-failed'; op: string; id: number; remote: PlainError };

export interface WorkerRpcOptions<E extends Error> {
  url: URL;
  workerData: unknown;
  /** Makes the typed error each failure ends in. */
  error: (failure: RpcFailure) => E;
  /** Told of each reply's meta (ok or not) before its request settles. */
  onReply?: (meta: unknown, ok: boolean) => void;
  /** Told once when the thread dies after it was ready (not when it ends after close()). */
  onDeath?: (err: E) => void;
}

interface Pending {
  op: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export class WorkerRpc<C extends RpcCalls, E extends Error> {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private dead_: E | null = null;
  private closing = false;

  private constructor(private readonly worker: Worker, private readonly o: WorkerRpcOptions<E>, readonly ready: unknown) {
    worker.on('message', (m: RpcReply) => this.reply(m));
    worker.on('error', (cause) => this.die(o.error({ kind: 'crashed', starting: false, cause })));
    worker.on('exit', (code) => this.die(o.error({ kind: 'exited', starting: false, code, closing: this.closing })));
  }

  /** Starts the thread and resolves once it is ready (with what its ready message carried in `ready`). */
  static start<C extends RpcCalls, E extends Error>(o: WorkerRpcOptions<E>): Promise<WorkerRpc<C, E>> {
    const worker = new Worker(o.url, { workerData: o.workerData });
    return new Promise((resolve, reject) => {
      // Only our own listeners come off: removeAllListeners() would also drop the hooks by which Worker keeps
      // its message port referenced, and replies would stop arriving.
      const off = (): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const fail = (err: E): void => {
        off();
        void worker.terminate();
        reject(err);
      };
      const onMessage = (m: RpcReply): void => {
        off();
        if (m.rpc === 'ready') resolve(new WorkerRpc<C, E>(worker, o, m.value));
        else if (m.rpc === 'failed') fail(o.error({ kind: 'start-failed', remote: m.error }));
        else fail(o.error({ kind: 'not-ready', message: m }));
      };
      const onError = (cause: Error): void => fail(o.error({ kind: 'crashed', starting: true, cause }));
      const onExit = (code: number): void => fail(o.error({ kind: 'exited', starting: true, code, closing: false }));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }

  /** The error the thread died with; null while it lives. Every later request fails with it. */
  get dead(): E | null {
    return this.dead_;
  }

  /** Sends a request; its signal, when it aborts, is passed on to the worker (the worker decides what that means). */
  request<K extends keyof C & string>(op: K, body: C[K]['body'], o: { transfer?: ArrayBuffer[]; signal?: AbortSignal } = {}): Promise<C[K]['value']> {
    if (this.dead_ !== null) return Promise.reject(this.dead_);
    const id = this.nextId++;
    const onAbort = (): void => {
      if (this.pending.has(id)) this.worker.postMessage({ rpc: 'abort', id } satisfies RpcRequest);
    };
    return new Promise<C[K]['value']>((resolve, reject) => {
      this.pending.set(id, { op, resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ rpc: 'call', id, op, body } satisfies RpcRequest, o.transfer ?? []);
      if (o.signal?.aborted) onAbort();
      else o.signal?.addEventListener('abort', onAbort, { once: true });
    }).finally(() => o.signal?.removeEventListener('abort', onAbort));
  }

  /** A message that needs no answer (e.g. new weights); dropped when the thread is dead. */
  tell(op: string, body: unknown, transfer: ArrayBuffer[] = []): void {
    if (this.dead_ === null) this.worker.postMessage({ rpc: 'tell', op, body } satisfies RpcRequest, transfer);
  }

  /** Sends `op` as the last request (its failure is ignored), then ends the thread. */
  async close(op: keyof C & string, body: unknown = null): Promise<void> {
    if (this.dead_ !== null || this.closing) return;
    this.closing = true;
    await this.request(op, body as C[typeof op]['body']).catch(() => undefined);
    await this.worker.terminate();
  }

  /**
   * Makes the thread die as a crash would (tests: a thread that dies mid-run); what it held fails as when it dies.
   * The worker exits itself between two turns of its event loop rather than being stopped from outside: an outside
   * terminate() that lands while onnxruntime's synchronous run() is on the worker's stack makes the binding's next
   * N-API call throw a C++ exception, which aborts the whole process (SIGABRT, seen in CI).
   */
  kill(code = 1): Promise<void> {
    if (this.dead_ !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ rpc: 'exit', code } satisfies RpcRequest);
    return exited;
  }

  private reply(m: RpcReply): void {
    if (m.rpc !== 'reply') return;
    const p = this.pending.get(m.id);
    if (p === undefined) return;
    this.pending.delete(m.id);
    this.o.onReply?.(m.meta, m.ok);
    if (m.ok) p.resolve(m.value);
    else p.reject(this.o.error({ kind: 'request-failed', op: p.op, id: m.id, remote: m.error }));
  }

  private die(err: E): void {
    if (this.dead_ !== null) return;
    this.dead_ = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    if (!this.closing) this.o.onDeath?.(err);
  }
}
