// `spade auth init DIR`: per-role credentials and the server config fragment for a cluster whose nats-server the
// operator runs (the embedded server makes its own under <run-dir>/auth). docs/security.md says how to use them.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeAuthDir, type CredentialKind } from './credentials.js';
import { UsageError } from './errors.js';
import { ADMIN, READER, ROLE_ACCESS } from './permissions.js';
import type { RoleRegistry } from './roles.js';

export const AUTH_HELP = `Usage: spade auth init DIR [--roles ROLE[,ROLE…]] [--password]

Writes per-role NATS credentials for a cluster: DIR/<role>.json (mode 0600; an nkey and its seed, or with --password
a user name and a random password) and DIR/nats-auth.conf, the server config fragment that declares each user with
its role's permissions (include it from the nats-server config). Files already in DIR are kept, so running it again
adds roles. Give each host only the files of its roles and point it at them with nats.credsDir (SPADE_NATS_CREDS_DIR);
the CLI's read-only user is "${READER}", and "${ADMIN}" (or the coordinator) declares the streams.

Options:
  --roles ROLE[,ROLE…]  roles to write (default: every role, plus ${READER} and ${ADMIN})
  --password            user name + password instead of nkeys
  -h, --help            show this help
`;

export async function runAuthCommand(argv: string[], registry: RoleRegistry): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { roles: { type: 'string', multiple: true }, password: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${AUTH_HELP}`);
  }
  if (parsed.values.help) {
    process.stdout.write(AUTH_HELP);
    return 0;
  }
  const [sub, dir, ...extra] = parsed.positionals;
  if (sub !== 'init' || dir === undefined || extra.length > 0) throw new UsageError(`expected: spade auth init DIR\n\n${AUTH_HELP}`);
  const known = [...new Set([...Object.keys(registry), ...Object.keys(ROLE_ACCESS)])];
  const roles = parsed.values.roles ? parsed.values.roles.flatMap((r) => r.split(',')).map((r) => r.trim()).filter(Boolean) : known;
  for (const r of roles) if (!known.includes(r)) throw new UsageError(`--roles: unknown role ${JSON.stringify(r)} (known: ${known.join(', ')})`);
  const kind: CredentialKind = parsed.values.password ? 'password' : 'nkey';
  const conf = writeAuthDir(resolve(dir), roles, kind);
  process.stdout.write(`wrote ${roles.map((r) => `${r}.json`).join(', ')} and ${conf}\n`);
  return 0;
}
