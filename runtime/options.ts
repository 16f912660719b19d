// The options kit: one error for a bad option anywhere (OptionsError: path, expected, got) and one way to turn a
// partial options object into a resolved one (defaults merged in, then checked against a runtime/schema.ts schema,
// unknown keys rejected). Every `validateFooOptions()` is built on resolveOptions().
import { formatIssue, show, type Check, type Issue } from './schema.js';
import { SpadeError } from './spade-error.js';

/** An option (or config field) is invalid; `path` is its dotted path, e.g. `loop.agent.maxTokens` or `config.sandbox.workers`. */
export class OptionsError extends SpadeError {
  readonly path: string;
  readonly expected: string;
  readonly got: unknown;
  constructor(path: string, expected: string, got: unknown, text?: string) {
    super(formatIssue({ path, expected, got, ...(text === undefined ? {} : { text }) }), {
      code: 'OPTIONS_INVALID',
      data: { path, expected, got: show(got) },
    });
    this.path = path;
    this.expected = expected;
    this.got = got;
  }
  /** The same as `path` (the name older callers used). */
  get field(): string {
    return this.path;
  }
  static of(issue: Issue): OptionsError {
    return new OptionsError(issue.path, issue.expected, issue.got, issue.text);
  }
}

export const isOptionsError = (e: unknown): e is OptionsError => e instanceof OptionsError;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

/** Defaults with `input` laid over them; nested objects the schema describes field by field are merged, not replaced. */
function merge(schema: Check<unknown> | undefined, defaults: unknown, input: unknown): unknown {
  if (input === undefined) return structuredClone(defaults);
  const shape = schema?.shape;
  if (!shape || !isPlainObject(defaults) || !isPlainObject(input)) return input;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(defaults)) out[k] = merge(shape[k], defaults[k], input[k]);
  for (const k of Object.keys(input)) if (!(k in defaults) && input[k] !== undefined) out[k] = input[k];
  return out;
}

/**
 * Merges `input` over `defaults` and checks the result against `schema` (which describes the resolved form);
 * throws OptionsError naming `path.<field>` for the first wrong or unknown field.
 */
export function resolveOptions<T>(schema: Check<T>, defaults: T, input: unknown, path: string): T {
  const value = merge(schema, defaults, input);
  const issue = schema.issue(value, path);
  if (issue) throw OptionsError.of(issue);
  return value as T;
}
