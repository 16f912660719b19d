// Loads the cluster config: defaults from cluster.config.ts < --config FILE < SPADE_* env < CLI flags,
// then validates the result so a wrong value fails at start naming its field and expected form.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import defaults from '../cluster.config.js';
import { CLUSTER_CONFIG, type ClusterConfig } from './config-schema.js';
import { ConfigError } from './errors.js';
import { OptionsError } from './options.js';

export type { ClusterConfig, RoleConfig } from './config-schema.js';

export interface ConfigSources {
  /** Path of a JSON or JS/TS-compiled module whose default export is a partial config. */
  file?: string;
  /** Environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** `path=value` assignments from the CLI (`--set`, and flags mapped onto paths), applied last. */
  set?: string[];
  /** `file` is a run's own saved config.json (`--resume`): fields this version retired are dropped, not refused. */
  savedRun?: boolean;
}

/**
 * Fields that were once in the config and are no more, with why and what to set instead. A config that sets one
 * fails naming it; a run's saved config.json (written by an older version) has them dropped so it still resumes.
 */
const RETIRED_ROLE_FIELDS: Readonly<Record<string, string>> = {
  memoryMb: 'no longer a config field: it was never enforced, and no per-role cap can be (a role\'s memory is onnxruntime\'s native arenas and QuickJS heaps, outside the V8 heap a worker\'s resourceLimits bound, in a process it may share with other roles); set host.memoryBudgetMb, the host\'s resident-memory budget, instead (docs/reliability.md)',
};

/** Throws OptionsError naming the first retired field `cfg` sets, or (savedRun) drops them all. */
function retireFields(cfg: Record<string, unknown>, drop: boolean): void {
  const roles = cfg.roles;
  if (!isPlainObject(roles)) return;
  for (const [role, rc] of Object.entries(roles)) {
    if (!isPlainObject(rc)) continue;
    for (const [field, why] of Object.entries(RETIRED_ROLE_FIELDS)) {
      if (!Object.hasOwn(rc, field)) continue;
      if (drop) delete rc[field];
      else throw new OptionsError(`config.roles.${role}.${field}`, 'no value', rc[field], why);
    }
  }
}

/** Environment variables and the config path each sets. */
export const ENV_OVERRIDES: Record<string, string> = {
  SPADE_NATS_URL: 'nats.servers',
  SPADE_NATS_USER: 'nats.user',
  SPADE_NATS_PASS: 'nats.pass',
  SPADE_NATS_TOKEN: 'nats.token',
  SPADE_NATS_CREDS: 'nats.credsFile',
  SPADE_NATS_CREDS_DIR: 'nats.credsDir',
  SPADE_ROLES: 'host.roles',
  SPADE_HOST_ID: 'host.id',
  SPADE_RUN_DIR: 'run.dir',
  SPADE_SEED: 'run.seed',
  SPADE_REPLICAS: 'topology.replicas',
  NATS_SERVER_BIN: 'nats.embedded.bin',
};

/** Checks one section of the config (e.g. `loop`) and throws OptionsError naming `path.<field>`. */
export type ConfigSectionValidator = (value: unknown, path: string) => unknown;

const sections = new Map<string, ConfigSectionValidator>();

/** Where a path of a section (relative to it) holding `value` moved to, or undefined when it did not move. */
export type ConfigSectionMoves = (path: string, value: unknown) => string | undefined;

const moves = new Map<string, ConfigSectionMoves>();

/**
 * Registers the validator of a section the runtime only carries (`loop`: the self-play options). The composition
 * root registers them (actors/roles.ts), so runtime/ never imports the modules that own them; loadConfig() then
 * fails at start naming the field, e.g. `config.loop.agent.maxTokens: expected an integer >= 1, got 0`. `moved`:
 * the section's fields that moved, which config files and --set may still give at their old path (loadConfig()
 * moves them before anything is merged, so precedence holds whichever path a source uses).
 */
export function defineConfigSection(name: 'loop', validate: ConfigSectionValidator, moved?: ConfigSectionMoves): void {
  sections.set(name, validate);
  if (moved) moves.set(name, moved);
}

/** The path `path` (dotted, from the config's root) holding `value` moved to, or `path` itself. */
function movedPath(path: string, value: unknown): string {
  const dot = path.indexOf('.');
  const moved = dot > 0 ? moves.get(path.slice(0, dot)) : undefined;
  const to = moved?.(path.slice(dot + 1), value);
  return to === undefined ? path : `${path.slice(0, dot)}.${to}`;
}

/** Moves the fields of a config file that sit at a moved path of their section onto the new one. */
function moveFields(cfg: Record<string, unknown>): void {
  for (const [section, moved] of moves) {
    const walk = (o: Record<string, unknown>, at: string): void => {
      const out: Array<[string, unknown]> = [];
      for (const [k, v] of Object.entries(o)) {
        const to = moved(at + k, v);
        if (to === undefined) {
          if (isPlainObject(v)) walk(v, `${at}${k}.`);
          continue;
        }
        out.push([to, v]);
        delete o[k];
      }
      // All out before any goes in: a flat key's value may sit where a group now goes (`objective: "decoupled"`).
      for (const [to, v] of out) setPath(cfg, `${section}.${to}`, v);
    };
    if (isPlainObject(cfg[section])) walk(cfg[section], '');
  }
}

const LIST_PATHS = new Set(['nats.servers', 'host.roles']);

function clone<T>(v: T): T {
  return structuredClone(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>, path: string): void {
  for (const [k, v] of Object.entries(over)) {
    const p = path ? `${path}.${k}` : k;
    if (isPlainObject(v) && isPlainObject(base[k])) deepMerge(base[k] as Record<string, unknown>, v, p);
    else base[k] = clone(v);
  }
}

/** Parses a CLI/env value: JSON when it parses (numbers, booleans, arrays), comma lists for list fields, else the string. */
export function parseValue(path: string, raw: string): unknown {
  if (LIST_PATHS.has(path) && !raw.trim().startsWith('[')) return raw.split(',').map((x) => x.trim()).filter(Boolean);
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Sets `a.b.c` on `target`, creating role entries from defaults as needed. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  if (!/^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/.test(path)) throw new ConfigError(path, `${path}: not a config path (expected e.g. roles.sandbox.concurrency)`);
  const parts = path.split('.');
  let o = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const k = parts[i]!;
    if (o[k] === undefined && parts[0] === 'roles' && i === 1) o[k] = { concurrency: 1, threads: 0, taskTimeoutMs: 600_000 };
    // The loop section is validated by its own module, so any nesting may be created here.
    if (o[k] === undefined && parts[0] === 'loop') o[k] = {};
    if (!isPlainObject(o[k])) throw new ConfigError(path, `${parts.slice(0, i + 1).join('.')}: no such section (while setting ${path})`);
    o = o[k] as Record<string, unknown>;
  }
  o[parts[parts.length - 1]!] = value;
}

async function readFileConfig(file: string): Promise<Record<string, unknown>> {
  const abs = resolve(file);
  let loaded: unknown;
  try {
    if (abs.endsWith('.json')) loaded = JSON.parse(readFileSync(abs, 'utf8'));
    else loaded = ((await import(pathToFileURL(abs).href)) as { default?: unknown }).default;
  } catch (err) {
    throw new ConfigError('--config', `--config ${file}: cannot load (${(err as Error).message})`, err);
  }
  if (!isPlainObject(loaded)) throw new ConfigError('--config', `--config ${file}: expected an object (JSON, or a module whose default export is one)`);
  return loaded;
}

/** Builds and validates the effective config. Throws ConfigError (sources) or OptionsError (a field) naming where. */
export async function loadConfig(sources: ConfigSources = {}): Promise<ClusterConfig> {
  const cfg = clone(defaults) as unknown as Record<string, unknown>;
  if (sources.file) {
    const fromFile = await readFileConfig(sources.file);
    if (sources.savedRun) retireFields(fromFile, true);
    moveFields(fromFile);
    deepMerge(cfg, fromFile, '');
  }
  const env = sources.env ?? process.env;
  for (const [name, path] of Object.entries(ENV_OVERRIDES)) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') setPath(cfg, path, parseValue(path, raw));
  }
  for (const assignment of sources.set ?? []) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new ConfigError('--set', `--set ${JSON.stringify(assignment)}: expected path=value, e.g. roles.echo.concurrency=4`);
    const path = assignment.slice(0, eq).trim();
    const value = parseValue(path, assignment.slice(eq + 1));
    setPath(cfg, movedPath(path, value), value);
  }
  return validateConfig(cfg);
}

/** Validates a complete config object; throws OptionsError naming the first wrong field as `config.<path>`. */
export function validateConfig(cfg: unknown): ClusterConfig {
  if (isPlainObject(cfg)) retireFields(cfg, false);
  const issue = CLUSTER_CONFIG.issue(cfg, 'config');
  if (issue) throw OptionsError.of(issue);
  const c = cfg as ClusterConfig;
  for (const [name, validate] of sections) validate((c as Record<string, unknown>)[name] ?? {}, `config.${name}`);
  if (c.host.memberTtlMs < 2 * c.host.heartbeatMs)
    throw new OptionsError('config.host.memberTtlMs', `>= 2 × host.heartbeatMs (${2 * c.host.heartbeatMs})`, c.host.memberTtlMs);
  if ((c.run.budgetTokens ?? 0) > 0 && (c.run.budgetEpisodes ?? 0) > 0)
    throw new OptionsError('config.run.budgetEpisodes', 'no value when run.budgetTokens is set (a run has one budget: tokens or agent episodes)', c.run.budgetEpisodes);
  if (c.nats.user !== undefined && c.nats.token !== undefined)
    throw new OptionsError('config.nats.token', 'no value when nats.user is set (set either nats.user/pass or nats.token, not both)', c.nats.token);
  return c;
}
