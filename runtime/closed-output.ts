// A reader that closes the CLI's output early (`spade env check FILE | head -1`) ends the command quietly, as SIGPIPE
// ends a C tool: no unhandled EPIPE stack trace. Node ignores SIGPIPE and reports the closed pipe as an 'error' event
// on process.stdout / process.stderr, which, unhandled, crashes the process with a stack trace and exit code 1.

/** Errors a write to a closed pipe, socket or terminal reports. */
const CLOSED = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'EIO']);

export function isClosedOutputError(err: unknown): boolean {
  return typeof (err as { code?: unknown })?.code === 'string' && CLOSED.has((err as { code: string }).code);
}

const closedHandlers = new Set<() => void>();
let outputClosed = false;

/**
 * A long-running command (a host) asks to hear of a closed output instead of being ended at once, to drain first.
 * Called at once (next tick) when the output closed before it registered. Returns the unregister function.
 */
export function onOutputClosed(fn: () => void): () => void {
  if (outputClosed) {
    setImmediate(fn);
    return () => undefined;
  }
  closedHandlers.add(fn);
  return () => void closedHandlers.delete(fn);
}

/** Tells the registered commands that the output closed; false when none had registered. */
export function notifyOutputClosed(): boolean {
  outputClosed = true;
  const handlers = [...closedHandlers];
  closedHandlers.clear();
  for (const fn of handlers) fn();
  return handlers.length > 0;
}

export interface ClosedOutputWatch {
  /** True once stdout or stderr was found closed. */
  readonly closed: boolean;
  /** Removes the handlers (tests). */
  dispose(): void;
}

/**
 * Handles errors on stdout and stderr: a closed output calls `onClosed` once (later writes are dropped by the
 * destroyed stream); any other write error is rethrown as before.
 */
export function watchClosedOutput(onClosed: (stream: 'stdout' | 'stderr') => void, streams = { stdout: process.stdout, stderr: process.stderr }): ClosedOutputWatch {
  let closed = false;
  const handlers = (['stdout', 'stderr'] as const).map((name) => {
    const handler = (err: unknown): void => {
      if (!isClosedOutputError(err)) throw err;
      if (closed) return;
      closed = true;
      onClosed(name);
    };
    streams[name].on('error', handler);
    return () => streams[name].off('error', handler);
  });
  return {
    get closed() { return closed; },
    dispose: () => handlers.forEach((off) => off()),
  };
}
