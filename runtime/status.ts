// `spade status`: members and their roles, per-stream and per-consumer lag and redeliveries,
// dead-letter count and the current policy version.
import { parseArgs } from 'node:util';
import { clientConfig } from './client-args.js';
import { openConnection, type Connection } from './connection.js';
import { READER } from './permissions.js';
import { UsageError } from './errors.js';
import { listMembers } from './membership.js';
import { formatCpuShares } from './host-profile.js';
import { PolicyVersion } from './message-types.js';
import { decode } from './messages.js';
import { BUCKETS, POLICY_KEYS, STREAM_PREFIX, STREAMS } from './subjects.js';

export const STATUS_HELP = `Usage: spade status [options]

Shows the cluster: members and roles, consumer lag and redeliveries per stream, dead letters, policy version.

Options:
  --json           print one JSON object
  --nats URL       NATS server (default: SPADE_NATS_URL, config, or <run-dir>/nats.url)
  --run-dir DIR    run directory of an embedded host
  -h, --help       show this help
`;

export interface ClusterStatus {
  members: Awaited<ReturnType<typeof listMembers>>;
  streams: Array<{
    name: string;
    messages: number;
    bytes: number;
    consumers: Array<{ name: string; pending: number; ackPending: number; redelivered: number; waiting: number }>;
  }>;
  deadLetters: number;
  policyVersion: number | null;
}

export async function readStatus(conn: Connection): Promise<ClusterStatus> {
  const streams: ClusterStatus['streams'] = [];
  let deadLetters = 0;
  for await (const si of conn.jsm.streams.list()) {
    if (!si.config.name.startsWith(STREAM_PREFIX)) continue;
    const consumers = [];
    for await (const ci of conn.jsm.consumers.list(si.config.name)) {
      if (!ci.config.durable_name) continue;
      consumers.push({ name: ci.name, pending: ci.num_pending, ackPending: ci.num_ack_pending, redelivered: ci.num_redelivered, waiting: ci.num_waiting });
    }
    streams.push({ name: si.config.name, messages: si.state.messages, bytes: si.state.bytes, consumers });
    if (si.config.name === STREAMS.deadLetters) deadLetters = si.state.messages;
  }
  let policyVersion: number | null = null;
  try {
    const kv = await conn.kvm.open(BUCKETS.policy);
    const e = await kv.get(POLICY_KEYS.version);
    if (e && e.operation === 'PUT' && e.value.length) policyVersion = decode(PolicyVersion, e.value).version;
  } catch {
    policyVersion = null;
  }
  return { members: await listMembers(conn).catch(() => []), streams: streams.sort((a, b) => a.name.localeCompare(b.name)), deadLetters, policyVersion };
}

export function formatStatus(s: ClusterStatus): string {
  const lines: string[] = [];
  lines.push(`members (${s.members.length}):`);
  for (const m of s.members)
    lines.push(
      `  ${m.hostId.padEnd(28)} roles=${m.roles.join(',')} inflight=${m.inflight} handled=${m.handled} failed=${m.failed} dlq=${m.deadLettered} lag=${m.eventLoopLagMs.toFixed(1)}ms age=${((Date.now() - m.ts) / 1000).toFixed(1)}s${m.rssMb !== undefined ? ` rss=${Math.round(m.rssMb)}MB` : ''}${m.draining ? ' DRAINING' : ''}${m.shedding ? ' SHEDDING' : ''}`
      + (m.cpuSec && m.cpuSec.all ? `\n    cpu ${m.cpuSec.all.toFixed(0)} s: ${formatCpuShares(m.cpuSec)}` : ''),
    );
  lines.push('streams:');
  for (const st of s.streams) {
    lines.push(`  ${st.name.padEnd(22)} msgs=${st.messages} bytes=${st.bytes}`);
    for (const c of st.consumers) lines.push(`    consumer ${c.name.padEnd(18)} lag=${c.pending} ack-pending=${c.ackPending} redelivered=${c.redelivered} waiting=${c.waiting}`);
  }
  lines.push(`dead letters: ${s.deadLetters}`);
  lines.push(`policy version: ${s.policyVersion ?? 'none'}`);
  return `${lines.join('\n')}\n`;
}

export async function runStatusCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { json: { type: 'boolean' }, nats: { type: 'string' }, 'run-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${STATUS_HELP}`);
  }
  if (parsed.values.help) {
    out.write(STATUS_HELP);
    return 0;
  }
  const config = await clientConfig({ nats: parsed.values.nats, runDir: parsed.values['run-dir'] });
  const conn = await openConnection(config.nats, 'spade-status', 10_000, { role: READER });
  try {
    const status = await readStatus(conn);
    out.write(parsed.values.json ? `${JSON.stringify(status)}\n` : formatStatus(status));
  } finally {
    await conn.close();
  }
  return 0;
}
