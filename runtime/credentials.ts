// Per-role NATS credentials on disk: `<dir>/<role>.json` ({ "nkey", "seed" } or { "user", "pass" }, mode 0600) or
// `<dir>/<role>.creds` (a JWT + seed file as `nsc` writes them). Generated for an embedded run under
// `<run-dir>/auth/` and by `spade auth init`; read by every host and client command of the run.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { credsAuthenticator, nkeyAuthenticator, nkeys, usernamePasswordAuthenticator, type Authenticator } from '@nats-io/nats-core';
import { AuthError } from './errors.js';
import { authorizationBlock, type ServerUser } from './permissions.js';

/** The directory of a run's credentials. */
export const authDirOf = (runDir: string): string => join(runDir, 'auth');

/** The server config fragment `spade auth init` writes beside the credentials. */
export const AUTH_CONF_FILE = 'nats-auth.conf';

export type CredentialKind = 'nkey' | 'password';

/** One role's credentials, ready to connect with. */
export interface RoleCredentials {
  role: string;
  path: string;
  authenticator: Authenticator;
  /** The server-side user: its nkey or user name (absent for a .creds file). */
  user?: ServerUser;
}

/** The credentials file of `role` in `dir` that exists (`.json` first), or undefined. */
export function credentialsFile(dir: string, role: string): string | undefined {
  return [join(dir, `${role}.json`), join(dir, `${role}.creds`)].find((p) => existsSync(p));
}

/** A secret must not be readable by other users (POSIX modes; Windows has none to check). */
function checkMode(path: string): void {
  if (process.platform === 'win32') return;
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0)
    throw new AuthError(`credentials file ${path} is open to other users (mode ${mode.toString(8).padStart(4, '0')}): chmod 600 ${path}`, { path, mode });
}

/** Reads `role`'s credentials from `dir`; a missing, unreadable, too-open or malformed file is an AuthError naming the path. */
export function readCredentials(dir: string, role: string): RoleCredentials {
  const path = credentialsFile(dir, role);
  if (!path) throw new AuthError(`no credentials for role ${role}: expected ${join(dir, `${role}.json`)} or ${join(dir, `${role}.creds`)}`, { path: join(dir, `${role}.json`), role });
  let text: string;
  try {
    checkMode(path);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof AuthError) throw err;
    throw new AuthError(`cannot read credentials file ${path}: ${(err as Error).message}`, { path, role }, err);
  }
  if (path.endsWith('.creds')) {
    if (!/-----BEGIN NATS USER JWT-----/.test(text)) throw new AuthError(`credentials file ${path} is not a NATS .creds file (no user JWT)`, { path, role });
    return { role, path, authenticator: credsAuthenticator(new TextEncoder().encode(text)) };
  }
  let v: { user?: unknown; pass?: unknown; nkey?: unknown; seed?: unknown };
  try {
    v = JSON.parse(text) as typeof v;
  } catch (err) {
    throw new AuthError(`credentials file ${path} is not JSON: ${(err as Error).message}`, { path, role }, err);
  }
  if (typeof v?.seed === 'string') {
    let nkey: string;
    try {
      nkey = nkeys.fromSeed(new TextEncoder().encode(v.seed)).getPublicKey();
    } catch (err) {
      throw new AuthError(`credentials file ${path}: "seed" is not an nkey seed (${(err as Error).message})`, { path, role }, err);
    }
    if (v.nkey !== undefined && v.nkey !== nkey) throw new AuthError(`credentials file ${path}: "nkey" is not the public key of "seed"`, { path, role });
    return { role, path, authenticator: nkeyAuthenticator(new TextEncoder().encode(v.seed)), user: { role, nkey } };
  }
  if (typeof v?.user === 'string' && typeof v.pass === 'string')
    return { role, path, authenticator: usernamePasswordAuthenticator(v.user, v.pass), user: { role, user: v.user, pass: v.pass } };
  throw new AuthError(`credentials file ${path}: expected { "nkey", "seed" } or { "user", "pass" }`, { path, role });
}

/** Writes a secret file readable by its owner only (also when it existed with a wider mode). */
function writeSecret(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * Makes sure `dir` holds credentials for every role (a file already there is kept: a resumed run and the hosts
 * already holding them keep working) and returns the server's users. Nkeys by default; `password` writes random
 * 24-byte passwords.
 */
export function ensureCredentials(dir: string, roles: readonly string[], kind: CredentialKind = 'nkey'): ServerUser[] {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const users: ServerUser[] = [];
  for (const role of roles) {
    if (!credentialsFile(dir, role)) {
      if (kind === 'nkey') {
        const kp = nkeys.createUser();
        writeSecret(join(dir, `${role}.json`), `${JSON.stringify({ nkey: kp.getPublicKey(), seed: new TextDecoder().decode(kp.getSeed()) }, null, 2)}\n`);
      } else {
        writeSecret(join(dir, `${role}.json`), `${JSON.stringify({ user: `spade-${role}`, pass: randomBytes(24).toString('base64url') }, null, 2)}\n`);
      }
    }
    const c = readCredentials(dir, role);
    if (!c.user) throw new AuthError(`${c.path}: a .creds file belongs to an operator/JWT setup, not to a server config this command writes`, { path: c.path, role });
    users.push(c.user);
  }
  return users;
}

/**
 * Credentials for `roles` plus the server config fragment (`authorization { users = [...] }`) in `dir`; the fragment
 * lists every role with a `.json` file there, so a second run adds roles. Returns the fragment's path.
 */
export function writeAuthDir(dir: string, roles: readonly string[], kind: CredentialKind = 'nkey'): string {
  ensureCredentials(dir, roles, kind);
  const all = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
  const users = ensureCredentials(dir, all, kind);
  const conf = join(dir, AUTH_CONF_FILE);
  writeSecret(conf, `# SPADE per-role users (runtime/permissions.ts); include it from the server config: include ${JSON.stringify(AUTH_CONF_FILE)}\n${authorizationBlock(users)}`);
  return conf;
}
