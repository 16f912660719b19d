// Message types: each has a name, a schema version and a schema validated on receive.
// Encoding is msgpack of { t, v, b }; a receiver accepts versions <= the one it knows
// (schemas only ever add optional fields) and rejects newer ones with a typed error.
import { pack, unpack, type Envelope } from './codec.js';
import { MessageError } from './errors.js';
import type { Check } from './schema.js';

export interface MessageType<T> {
  readonly type: string;
  readonly version: number;
  readonly schema: Check<T>;
}

/** The body type of a message type, derived from its schema: `type LabeledBatchBody = BodyOf<typeof LabeledBatch>`. */
export type BodyOf<M> = M extends MessageType<infer T> ? T : never;

const registry = new Map<string, MessageType<unknown>>();

function register(def: MessageType<unknown>): void {
  const existing = registry.get(def.type);
  if (existing && existing.version !== def.version)
    throw new MessageError('version', `message type ${def.type} defined twice with versions ${existing.version} and ${def.version}`);
  registry.set(def.type, def);
}

/** Declares a message type and registers it so any receiver (e.g. `spade tail`) can validate it. */
export function defineMessage<T>(type: string, version: number, schema: Check<T>): MessageType<T> {
  if (!/^[a-z][a-z0-9.-]*$/.test(type)) throw new MessageError('envelope', `message type ${JSON.stringify(type)}: expected [a-z][a-z0-9.-]*`);
  const def: MessageType<T> = { type, version, schema };
  register(def as MessageType<unknown>);
  return def;
}

/**
 * Registers an application's message catalog (its composition root hands it to the runtime), so receivers that
 * handle any subject decode all of them whichever modules this process happened to load.
 */
export function registerMessages(catalog: readonly MessageType<unknown>[]): void {
  for (const def of catalog) register(def);
}

/** Every registered message type. */
export function messageTypes(): MessageType<unknown>[] {
  return [...registry.values()];
}

/** Encodes a body as `def`, validating it first so a bad publish fails at the sender. */
export function encode<T>(def: MessageType<T>, body: T): Uint8Array {
  const err = def.schema.check(body, def.type);
  if (err) throw new MessageError('encode', `cannot send ${def.type}: ${err}`, { type: def.type });
  return pack({ t: def.type, v: def.version, b: body } satisfies Envelope);
}

export interface Decoded<T> {
  type: string;
  version: number;
  body: T;
}

/** Decodes and validates any registered message; throws MessageError saying what was wrong. */
export function decodeAny(bytes: Uint8Array, where: Record<string, unknown> = {}): Decoded<unknown> {
  let env: unknown;
  try {
    env = unpack(bytes);
  } catch (err) {
    throw new MessageError('decode', `not msgpack (${(err as Error).message}; ${bytes.length} bytes)`, where, err);
  }
  if (typeof env !== 'object' || env === null || typeof (env as Envelope).t !== 'string' || typeof (env as Envelope).v !== 'number' || !('b' in env))
    throw new MessageError('envelope', `not a SPADE envelope {t, v, b} (${bytes.length} bytes)`, where);
  const { t, v, b } = env as Envelope;
  const def = registry.get(t);
  if (!def) throw new MessageError('unknown-type', `unknown message type ${JSON.stringify(t)}`, { ...where, type: t });
  // Not `v > version || v < 1` alone: NaN compares false both ways (a fuzzer found NaN versions accepted).
  if (!Number.isInteger(v) || v > def.version || v < 1)
    throw new MessageError('version', `${t} schema version ${v} is not supported (this build knows 1..${def.version})`, { ...where, type: t, version: v });
  const err = def.schema.check(b, t);
  if (err) throw new MessageError('schema', `invalid ${t}: ${err}`, { ...where, type: t, version: v });
  return { type: t, version: v, body: b };
}

/** Decodes and checks that the message is of type `def`. */
export function decode<T>(def: MessageType<T>, bytes: Uint8Array, where: Record<string, unknown> = {}): T {
  const d = decodeAny(bytes, where);
  if (d.type !== def.type) throw new MessageError('unknown-type', `expected ${def.type}, got ${d.type}`, { ...where, type: d.type });
  return d.body as T;
}
