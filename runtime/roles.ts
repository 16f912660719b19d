// Role registries: name → actor factory. The runtime knows no roles of its own; an application's composition
// root (actors/roles.ts for the self-play loop) hands its registry to the host. `--role all` runs every one.
import type { ActorFactory } from './actor.js';
import { ConfigError } from './errors.js';

export type RoleRegistry = Readonly<Record<string, ActorFactory>>;

/** Expands `all` and checks that every role exists in `registry`; throws ConfigError naming host.roles. */
export function resolveRoles(requested: string[], registry: RoleRegistry): string[] {
  const known = Object.keys(registry);
  const out = new Set<string>();
  for (const r of requested) {
    if (r === 'all') for (const d of known) out.add(d);
    else if (Object.hasOwn(registry, r)) out.add(r);
    else throw new ConfigError('host.roles', `config.host.roles: unknown role ${JSON.stringify(r)} (known: all, ${known.join(', ')})`);
  }
  return [...out];
}
