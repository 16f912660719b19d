// `spade tail <pattern>`: prints decoded messages on any subject as they arrive — from the streams
// that store the subject (optionally from --since ago) and, for plain core subjects, live.
import { parseArgs } from 'node:util';
import { RetentionPolicy } from '@nats-io/jetstream';
import type { Msg } from '@nats-io/transport-node';
import { clientConfig, parseDuration } from './client-args.js';
import { openConnection } from './connection.js';
import { READER } from './permissions.js';
import { UsageError, isMessageError } from './errors.js';
import { followStream } from './follow.js';
import { decodeAny } from './messages.js';
import './message-catalog.js';
import { subjectCovers, subjectsOverlap } from './subject-match.js';
import { SUBJECT_WILDCARDS } from './subjects.js';

export const TAIL_HELP = `Usage: spade tail <subject-pattern> [options]

Prints decoded messages on subjects matching the pattern (NATS wildcards: * one token, > the rest).
Stored subjects are read from their streams; others are subscribed live.

Options:
  --since DURATION   also print stored messages from this long ago (e.g. 30s, 10m, 2h)
  --json             one JSON object per line
  --count N          exit after N messages
  --nats URL         NATS server (default: SPADE_NATS_URL, config, or <run-dir>/nats.url)
  --run-dir DIR      run directory of an embedded host
  -h, --help         show this help

Examples:
  spade tail '${SUBJECT_WILDCARDS.env}' --since 10m
  spade tail '${SUBJECT_WILDCARDS.deadLetter}' --json
`;

function bytesPreview(b: Uint8Array): string {
  const hex = Buffer.from(b.subarray(0, 16)).toString('hex');
  return `<${b.length} bytes ${hex}${b.length > 16 ? '…' : ''}>`;
}

function jsonSafe(v: unknown, text: boolean): unknown {
  if (v instanceof Uint8Array) return text ? bytesPreview(v) : { bytes: v.length, base64: Buffer.from(v).toString('base64') };
  if (Array.isArray(v)) return v.map((x) => jsonSafe(x, text));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x, text)]));
  return v;
}

export interface TailRecord {
  ts: string;
  subject: string;
  stream?: string;
  seq?: number;
  msgId?: string;
  type?: string;
  version?: number;
  body?: unknown;
  error?: string;
  bytes: number;
}

export function describe(subject: string, data: Uint8Array, meta: { stream?: string; seq?: number; msgId?: string; ts?: number }): TailRecord {
  const rec: TailRecord = { ts: new Date(meta.ts ?? Date.now()).toISOString(), subject, bytes: data.length };
  if (meta.stream) rec.stream = meta.stream;
  if (meta.seq !== undefined) rec.seq = meta.seq;
  if (meta.msgId) rec.msgId = meta.msgId;
  try {
    const d = decodeAny(data);
    rec.type = d.type;
    rec.version = d.version;
    rec.body = d.body;
  } catch (err) {
    rec.error = isMessageError(err) ? `${err.reason}: ${err.message}` : (err as Error).message;
  }
  return rec;
}

export function formatRecord(rec: TailRecord, json: boolean): string {
  if (json) return JSON.stringify(jsonSafe(rec, false));
  const where = rec.stream ? ` [${rec.stream}#${rec.seq}]` : '';
  const what = rec.error ? `UNDECODABLE (${rec.error}) ${rec.bytes} bytes` : `${rec.type}@${rec.version} ${JSON.stringify(jsonSafe(rec.body, true))}`;
  return `${rec.ts.slice(11, 23)} ${rec.subject}${where} ${what}`;
}

export async function runTailCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        since: { type: 'string' },
        json: { type: 'boolean' },
        count: { type: 'string' },
        nats: { type: 'string' },
        'run-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${TAIL_HELP}`);
  }
  const v = parsed.values;
  if (v.help) {
    out.write(TAIL_HELP);
    return 0;
  }
  if (parsed.positionals.length !== 1) throw new UsageError(`spade tail takes exactly one subject pattern\n\n${TAIL_HELP}`);
  const pattern = parsed.positionals[0]!;
  if (!/^[^\s]+$/.test(pattern) || /(^|\.)>\./.test(pattern)) throw new UsageError(`${JSON.stringify(pattern)} is not a valid subject pattern`);
  const sinceMs = v.since ? parseDuration(v.since, '--since') : undefined;
  const limit = v.count ? Number(v.count) : Infinity;
  if (!(limit > 0)) throw new UsageError(`--count ${v.count}: expected a positive integer`);

  const config = await clientConfig({ nats: v.nats, runDir: v['run-dir'] });
  const conn = await openConnection(config.nats, 'spade-tail', 10_000, { role: READER });
  let printed = 0;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const emit = (rec: TailRecord) => {
    if (printed >= limit) return;
    out.write(`${formatRecord(rec, v.json === true)}\n`);
    if (++printed >= limit) finish();
  };

  const stored: string[] = [];
  const readers: Promise<void>[] = [];
  for await (const si of conn.jsm.streams.list()) {
    // A work queue admits no second overlapping consumer, so its subjects are tailed live (core NATS).
    if (si.config.retention === RetentionPolicy.Workqueue) continue;
    for (const subj of si.config.subjects ?? []) {
      stored.push(subj);
      if (!subjectsOverlap(subj, pattern)) continue;
      const filter = subjectCovers(subj, pattern) ? pattern : subj;
      const from = sinceMs !== undefined ? { since: new Date(Date.now() - sinceMs) } : 'new' as const;
      const msgs = await followStream(conn, { stream: si.config.name, filter, from });
      readers.push(
        (async () => {
          for await (const m of msgs) {
            emit(describe(m.subject, m.data, { stream: m.info.stream, seq: m.seq, msgId: m.headers?.get('Nats-Msg-Id') || undefined, ts: Math.floor(m.info.timestampNanos / 1e6) }));
          }
        })(),
      );
      void done.then(() => msgs.close());
    }
  }
  const sub = conn.nc.subscribe(pattern, {
    callback: (_err, m: Msg) => {
      if (stored.some((s) => subjectCovers(s, m.subject))) return;
      if (m.subject.startsWith('$JS.') || m.subject.startsWith('_INBOX.')) return;
      emit(describe(m.subject, m.data, {}));
    },
  });
  const onSignal = () => finish();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await done;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  sub.unsubscribe();
  await Promise.allSettled(readers);
  await conn.close();
  return 0;
}
