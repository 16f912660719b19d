// The environment's `spec` export: its fields and the checks the contract stage applies to them.
import { EnvContract } from './errors.js';
import type { RawSpec } from './instance.js';

export interface EnvSpec {
  name: string;
  description: string;
  hint: string;
  maxTurns: number;
  hasOracle: boolean;
}

const NAME = /^[a-z0-9-]{1,64}$/;
const MAX_TEXT = 8192;

/** Checks the spec read from a module; throws EnvContract naming the field and its value. */
export function checkSpec(raw: RawSpec, maxTurnsLimit: number): EnvSpec {
  const f = raw.fields;
  const bad = (field: string, expected: string, value: string): never => {
    throw new EnvContract(`spec.${field} must be ${expected}`, { stage: 'load', value });
  };
  for (const k of ['name', 'description', 'hint'] as const) {
    const [type, value] = f[k];
    if (type !== 'string') bad(k, 'a string', `${type} ${value}`);
    if (value.trim().length === 0) bad(k, 'a non-empty string', value);
    if (value.length > MAX_TEXT) bad(k, `at most ${MAX_TEXT} characters`, value);
  }
  if (!NAME.test(f.name[1])) bad('name', 'lowercase letters, digits and dashes, 1 to 64 characters ([a-z0-9-]{1,64})', f.name[1]);
  const [mtType, mtValue] = f.maxTurns;
  const maxTurns = Number(mtValue);
  if (mtType !== 'number' || !Number.isInteger(maxTurns) || maxTurns < 1 || maxTurns > maxTurnsLimit) {
    bad('maxTurns', `an integer in 1..${maxTurnsLimit}`, `${mtType} ${mtValue}`);
  }
  return { name: f.name[1], description: f.description[1], hint: f.hint[1], maxTurns, hasOracle: raw.hasOracle };
}
