// Typed errors of the sandbox: what environment code did wrong (EnvError family, carrying the call stage and
// the offending value) and what went wrong around it (SandboxError family: missing code, dead workers, closed pool).
// A bad SandboxOptions field is an OptionsError (runtime/options.ts).
import { coded, guard, SpadeError } from '../runtime/spade-error.js';

/** Where in an environment's life a failure happened. */
export type EnvStage = 'parse' | 'load' | 'reset' | 'step' | 'oracle' | 'validation';

const MAX_VALUE_CHARS = 200;

/** Shortens an offending value for error messages and reports. */
export function truncateValue(value: unknown): string {
  let s: string;
  if (typeof value === 'string') s = value;
  else {
    try {
      s = JSON.stringify(value) ?? String(value);
    } catch {
      s = String(value);
    }
  }
  return s.length > MAX_VALUE_CHARS ? `${s.slice(0, MAX_VALUE_CHARS)}…(${s.length} chars)` : s;
}

export interface EnvErrorDetails {
  stage: EnvStage;
  /** The offending value, already truncated. */
  value?: string;
  /** 1-based turn of the step that failed (0 for reset). */
  turn?: number;
  cause?: unknown;
}

/** Base of every failure caused by environment code; each subclass names only its code (`static code`). */
export class EnvError extends SpadeError {
  static readonly code: string = 'ENV_ERROR';
  readonly stage: EnvStage;
  readonly value: string | undefined;
  readonly turn: number | undefined;
  constructor(message: string, details: EnvErrorDetails) {
    super(message, {
      code: (new.target as typeof EnvError).code,
      cause: details.cause,
      data: { stage: details.stage, value: details.value, turn: details.turn },
    });
    this.stage = details.stage;
    this.value = details.value;
    this.turn = details.turn;
  }
}

/** A call ran past its time limit (interrupt handler) or was killed by the wall-clock watchdog. */
export class EnvTimeout extends EnvError { static override readonly code = 'ENV_TIMEOUT'; }
/** The environment ran out of its heap. */
export class EnvMemory extends EnvError { static override readonly code = 'ENV_MEMORY'; }
/** The environment recursed past the stack limit. */
export class EnvStack extends EnvError { static override readonly code = 'ENV_STACK'; }
/** The module does not parse, or uses what v1 forbids (imports, top-level await). */
export class EnvSyntax extends EnvError { static override readonly code = 'ENV_SYNTAX'; }
/** The environment broke the contract: wrong exports, wrong shapes, oversized output, stepping after the end. */
export class EnvContract extends EnvError { static override readonly code = 'ENV_CONTRACT'; }
/** A reward is not finite, or the running return left [0, 1]. */
export class EnvReturnRange extends EnvError { static override readonly code = 'ENV_RETURN_RANGE'; }
/** Environment code threw (anything: Errors, strings, objects). */
export class EnvThrew extends EnvError { static override readonly code = 'ENV_THREW'; }
/** Two replays of the same (code, seed, actions) disagreed. */
export class EnvNondeterministic extends EnvError { static override readonly code = 'ENV_NONDETERMINISTIC'; }

/** The hint hands over the answer: an agent playing a constant action taken from the hint wins (value: that action). */
export class EnvHintLeak extends EnvError { static override readonly code = 'ENV_HINT_LEAK'; }

const ENV_ERRORS = { EnvTimeout, EnvMemory, EnvStack, EnvSyntax, EnvContract, EnvReturnRange, EnvThrew, EnvNondeterministic, EnvHintLeak };

export const isEnvError = guard(EnvError);
export const isEnvTimeout = guard(EnvTimeout);
export const isEnvMemory = guard(EnvMemory);
export const isEnvStack = guard(EnvStack);
export const isEnvSyntax = guard(EnvSyntax);
export const isEnvContract = guard(EnvContract);
export const isEnvReturnRange = guard(EnvReturnRange);
export const isEnvThrew = guard(EnvThrew);
export const isEnvNondeterministic = guard(EnvNondeterministic);
export const isEnvHintLeak = guard(EnvHintLeak);

/** Base of failures of the sandbox itself, not of the environment. */
export class SandboxError extends SpadeError {}
/** A request named a code hash the pool has never seen: resend it with `code`. */
export class SandboxCodeMissing extends SandboxError {
  readonly codeHash: string;
  constructor(codeHash: string) {
    super(`no code cached for hash ${codeHash}: resend the request with its code`, { code: 'SANDBOX_CODE_MISSING', data: { codeHash } });
    this.codeHash = codeHash;
  }
}
/** A request is malformed (bad seed, actions not strings, code that does not match its hash...). */
export class SandboxRequestError extends SandboxError {
  constructor(message: string, field: string) {
    super(message, { code: 'SANDBOX_REQUEST', data: { field } });
  }
}
/** A worker died twice on the same call (after the one retry). */
export class SandboxWorkerDied extends SandboxError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'SANDBOX_WORKER_DIED', cause });
  }
}
/** The pool is closed. */
export class SandboxClosed extends SandboxError {
  constructor() {
    super('the sandbox pool is closed', { code: 'SANDBOX_CLOSED' });
  }
}
/** The shared kit (envs/kit.js) failed to load; no environment can run. */
export class SandboxKitError extends coded(SandboxError, 'SANDBOX_KIT') {}

export const isSandboxError = guard(SandboxError);
export const isSandboxCodeMissing = guard(SandboxCodeMissing);
export const isSandboxWorkerDied = guard(SandboxWorkerDied);

/** Plain form of an error, for crossing the worker boundary and for reports. */
export interface WireError {
  name: string;
  message: string;
  code?: string;
  stage?: EnvStage;
  value?: string;
  turn?: number;
  data?: Record<string, unknown>;
}

export function toWireError(err: unknown): WireError {
  if (err instanceof EnvError) {
    return { name: err.name, message: err.message, code: err.code, stage: err.stage, value: err.value, turn: err.turn };
  }
  if (err instanceof SpadeError) return { name: err.name, message: err.message, code: err.code, data: err.data };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: truncateValue(err) };
}

/** Rebuilds the typed error on the pool's side of the worker boundary. */
export function fromWireError(w: WireError): Error {
  const Env = ENV_ERRORS[w.name as keyof typeof ENV_ERRORS];
  if (Env) return new Env(w.message, { stage: w.stage ?? 'validation', value: w.value, turn: w.turn });
  if (w.name === 'SandboxCodeMissing') return new SandboxCodeMissing(String(w.data?.codeHash ?? ''));
  if (w.name === 'SandboxRequestError') return new SandboxRequestError(w.message, String(w.data?.field ?? ''));
  if (w.name === 'SandboxKitError') return new SandboxKitError(w.message);
  return new SandboxError(`${w.name}: ${w.message}`, { code: 'SANDBOX_INTERNAL', data: { original: w.name } });
}
