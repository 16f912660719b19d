// The root of every typed error in the project: each area's errors.ts extends it.
export interface SpadeErrorOptions {
  code: string;
  cause?: unknown;
  data?: Record<string, unknown>;
}

export class SpadeError extends Error {
  readonly code: string;
  readonly data: Record<string, unknown>;
  constructor(message: string, opts: SpadeErrorOptions) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = opts.code;
    this.data = opts.data ?? {};
  }
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, ...this.data };
  }
}

export function isSpadeError(err: unknown): err is SpadeError {
  return err instanceof SpadeError;
}
