// An error in plain form, for crossing a worker-thread boundary: structured cloning keeps neither an error's class
// nor its extra fields, so the worker sends name, message and code and the other side rebuilds a typed error.
export interface PlainError {
  name: string;
  message: string;
  code?: string;
}

export function plainError(err: unknown): PlainError {
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: unknown }).code;
  return { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) };
}
