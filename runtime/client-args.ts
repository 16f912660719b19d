// Shared handling of the cluster address for client commands (tail, status, dashboard): --nats, SPADE_NATS_URL,
// the config, or the nats.url file that an embedded `spade start` writes into its run directory; and the run's
// credentials (<run-dir>/auth, used as the read-only `reader` user) when it has them.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, type ClusterConfig } from './config.js';
import { authDirOf } from './credentials.js';
import { UsageError } from './errors.js';

export async function clientConfig(opts: { nats?: string; runDir?: string; config?: string }): Promise<ClusterConfig> {
  const set: string[] = [];
  if (opts.nats) set.push(`nats.servers=${opts.nats}`);
  if (opts.runDir) set.push(`run.dir=${JSON.stringify(opts.runDir)}`);
  const config = await loadConfig({ file: opts.config, set });
  const runDir = resolve(config.run.dir || 'runs/latest');
  // The run's credentials when the run is named or reached through its nats.url (not for another cluster's --nats).
  const ofTheRun = config.run.dir !== '' || config.nats.servers.length === 0;
  if (config.nats.credsDir === undefined && ofTheRun && existsSync(authDirOf(runDir))) config.nats.credsDir = authDirOf(runDir);
  if (config.nats.servers.length === 0) {
    const urlFile = resolve(runDir, 'nats.url');
    if (existsSync(urlFile)) config.nats.servers = [readFileSync(urlFile, 'utf8').trim()];
    else
      throw new UsageError(
        `no NATS server to talk to: pass --nats URL, set SPADE_NATS_URL, or start a host first (an embedded one writes its URL to ${urlFile})`,
      );
  }
  return config;
}

/** Parses durations like 90s, 10m, 2h, 1d, 500ms. */
export function parseDuration(text: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  if (!m) throw new UsageError(`${flag} ${JSON.stringify(text)}: expected a duration such as 30s, 10m, 2h, 1d`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit;
}
