// The worker's side of worker-rpc.ts: builds what the thread serves, says ready (or failed), then answers each
// request by its op, concurrently or one at a time in arrival order, with errors sent in plain form.
import { parentPort } from 'node:worker_threads';
import { plainError } from './plain-error.js';
import { WorkerRpcError, type RpcCalls, type RpcReply, type RpcRequest } from './worker-rpc.js';

/** A reply value with the buffers to move (not copy) to the main thread. */
export class Transfer<T> {
  constructor(readonly value: T, readonly transfer: ArrayBuffer[]) {}
}

type Answer<T> = T | Transfer<T> | Promise<T | Transfer<T>>;

export interface ServeOptions<C extends RpcCalls, S> {
  /** Builds what the requests act on (a session, a sampler); a throw is sent as `failed` and the thread serves nothing. */
  open(): Promise<S>;
  /** Sent with ready. */
  ready?(state: S): unknown;
  /** One handler per op; `signal` aborts when the main side's request signal does. */
  calls: { [K in keyof C]: (state: S, body: C[K]['body'], signal: AbortSignal) => Answer<C[K]['value']> };
  /** Messages that need no answer. */
  tells?: Record<string, (state: S, body: unknown) => void>;
  /** Added to every reply (e.g. the step count after the request). */
  meta?(state: S): unknown;
  /** 'one-at-a-time': a request starts when the one before it has been answered (an update never interleaves with a copy). */
  order: 'concurrent' | 'one-at-a-time';
  /** After answering this op the port closes, so the thread can end. */
  closeOn?: keyof C & string;
}

export async function serveRpc<C extends RpcCalls, S>(o: ServeOptions<C, S>): Promise<void> {
  const port = parentPort;
  if (port === null) throw new WorkerRpcError('serveRpc runs only in a worker thread');
  let state: S;
  try {
    state = await o.open();
  } catch (err) {
    port.postMessage({ rpc: 'failed', error: plainError(err) } satisfies RpcReply);
    return;
  }
  const aborts = new Map<number, AbortController>();
  const answer = async (m: Extract<RpcRequest, { rpc: 'call' }>, signal: AbortSignal): Promise<void> => {
    try {
      const handler = o.calls[m.op as keyof C];
      if (handler === undefined) throw new WorkerRpcError(`the worker has no handler for request op '${m.op}'`, { op: m.op });
      const a = await handler(state, m.body, signal);
      const { value, transfer } = a instanceof Transfer ? a : { value: a, transfer: [] };
      port.postMessage({ rpc: 'reply', id: m.id, ok: true, value, meta: o.meta?.(state) } satisfies RpcReply, transfer);
      if (m.op === o.closeOn) port.close();
    } catch (err) {
      port.postMessage({ rpc: 'reply', id: m.id, ok: false, error: plainError(err), meta: o.meta?.(state) } satisfies RpcReply);
    } finally {
      aborts.delete(m.id);
    }
  };
  let chain = Promise.resolve();
  port.on('message', (m: RpcRequest) => {
    if (m.rpc === 'call') {
      // Registered on arrival, so an abort reaches a request still waiting for its turn.
      const ac = new AbortController();
      aborts.set(m.id, ac);
      if (o.order === 'one-at-a-time') chain = chain.then(() => answer(m, ac.signal));
      else void answer(m, ac.signal);
    } else if (m.rpc === 'abort') aborts.get(m.id)?.abort();
    else if (m.rpc === 'exit') process.exit(m.code); // in a worker this ends the thread only
    else o.tells?.[m.op]?.(state, m.body);
  });
  port.postMessage({ rpc: 'ready', value: o.ready?.(state) ?? null } satisfies RpcReply);
}
