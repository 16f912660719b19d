// The per-role NATS users of a soak's own nats-server (the chaos soak, the message fuzzer), made as `spade start`
// makes an embedded run's: one nkey per role in `<dir>/auth` and the server's `authorization` block, so a soak runs
// under the permission matrix and any refusal it meets is counted (a regression of runtime/permissions.ts).
import { join } from 'node:path';
import { ensureCredentials } from '../runtime/credentials.js';
import { authorizationBlock } from '../runtime/permissions.js';

export interface SoakAuth {
  /** Where the roles' credential files are (`nats.credsDir` of every host and client of the soak). */
  credsDir: string;
  /** The server config's `authorization { users = [...] }`. */
  authorization: string;
  /** `--set` assignments that make a host connect each role as its own user. */
  sets: string[];
}

export function soakAuth(dir: string, roles: readonly string[]): SoakAuth {
  const credsDir = join(dir, 'auth');
  return { credsDir, authorization: authorizationBlock(ensureCredentials(credsDir, roles)), sets: [`nats.credsDir=${JSON.stringify(credsDir)}`] };
}

/**
 * The log lines that report a refusal by the server: a refused core publish or pull (`permission denied: role … may
 * not …`, start-host.ts) and an input dead-lettered because its output was refused (the PermissionError's message).
 */
export function refusalsIn(log: string): string[] {
  return log.split('\n').filter((l) => /permissions? violation|permission denied: /i.test(l));
}
