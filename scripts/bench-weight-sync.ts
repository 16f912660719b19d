// `npm run bench:weight-sync`: publish → apply latency (p50, p95) of a ~3.3M-parameter model (13 MB of F32) to several
// watchers, by path (object-store download, bus push, in-process hand-over), each push path with its previous settings
// (checks once the record is in, 1 MiB chunks, one chunk of the upload in flight, hand-overs applied only once the
// record names them) beside the current ones, watchers in another process (as on another host: the bus push, and the
// download), and the hand-over without a bus push (every
// sampler in the learner's process), interleaved publish by publish in one run; next
// to the CPU work alone and the raw object-store put + get of the same bytes. Ends with one JSON line. Settings:
// BENCH_PUBLISHES (per arm), BENCH_WATCHERS, BENCH_ROUNDS (CPU and raw rounds), BENCH_RAW_JS=1 (also the raw client
// with its pure-JS sha256: seconds per round on a busy machine).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { initParameters, parameterShapes, validateDecoderConfig } from '../model/index.js';
import { setSha256Backend } from '@nats-io/obj';
import { WeightPublisher, WeightTransportError, WeightWatcher, configHash, decodeWeightPayload, encodeWeightPayload, openWeightStores, readPolicyRecord } from '../weight-sync/index.js';
import { sha256Hex } from '../weight-sync/index.js';
import { loadConfig } from '../runtime/config.js';
import { openConnection } from '../runtime/connection.js';
import { startNatsServer } from '../runtime/nats-server.js';
import { OBJECT_STORES } from '../runtime/subjects.js';
import { ensureTopology } from '../runtime/topology.js';
import { repoPath } from '../runtime/paths.js';
import { BenchError } from '../bench/errors.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 20);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 3);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Nearest-rank percentile. */
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)]!;
const ms = (x: number): string => `${x.toFixed(1)} ms`;
const watchers0 = (): number[] => Array.from({ length: WATCHERS }, () => NaN);
/** Epoch milliseconds with sub-millisecond resolution, comparable across the processes of one machine. */
const epochMs = (): number => performance.timeOrigin + performance.now();

/** Watchers in a process of their own (scripts/bench-weight-sync-watchers.ts), as samplers on another host. */
class RemoteWatchers {
  private readonly inbox: Array<Record<string, unknown>> = [];
  private wake: (() => void) | null = null;
  private closing = false;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (m: Record<string, unknown>) => {
      if (typeof m.error === 'string') console.error(`  (remote watcher: ${m.error})`);
      else this.inbox.push(m);
      this.wake?.();
    });
    child.on('exit', (code, sig) => {
      if (!this.closing) throw new BenchError(`the remote watchers' process exited (${code ?? sig}) in the middle of the benchmark`);
    });
  }

  static async start(url: string, count: number, path: 'bus' | 'store'): Promise<RemoteWatchers> {
    const r = new RemoteWatchers(fork(repoPath('dist/scripts/bench-weight-sync-watchers.js'), [url, String(count), path], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    await r.take((m) => m.up === true);
    return r;
  }

  async watch(fromVersion: number): Promise<void> {
    this.child.send({ start: fromVersion });
    await this.take((m) => m.ready === true);
  }

  /** When each of `count` watchers applied `version` (epoch ms). */
  async applied(version: number, count: number): Promise<number[]> {
    const out: number[] = [];
    while (out.length < count) out.push((await this.take((m) => m.version === version)).t as number);
    return out;
  }

  async unwatch(): Promise<void> {
    this.child.send({ stop: true });
    await this.take((m) => m.stopped === true);
  }

  close(): void {
    this.closing = true;
    if (this.child.connected) this.child.send({ exit: true });
  }

  private async take(match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (;;) {
      const i = this.inbox.findIndex(match);
      if (i >= 0) return this.inbox.splice(i, 1)[0]!;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

function signal(): { promise: Promise<number>; resolve: (t: number) => void } {
  let resolve!: (t: number) => void;
  return { promise: new Promise<number>((r) => (resolve = r)), resolve };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'spade-bench-ws-'));
  const server = await startNatsServer({ storeDir: join(dir, 'nats') });
  try {
    const cfg = await loadConfig({ env: {}, set: [`nats.servers=${server.url}`] });
    const learner = await openConnection(cfg.nats, 'bench-learner');
    const sampler = await openConnection(cfg.nats, 'bench-sampler');
    await ensureTopology(learner, cfg);
    // The model docs/model.md's figures were measured on (3.34 M parameters; the policy default, DEFAULT_POLICY_MODEL, has 3.48 M).
    const model = validateDecoderConfig({ layers: 4, width: 256, heads: 8, contextLength: 512, vocab: 512 });
    const shapes = parameterShapes(model);
    const weights = initParameters(model, 1);
    const params = [...weights.values()].reduce((n, a) => n + a.length, 0);
    const hash = configHash(model);

    // Baselines: the CPU work alone, and the raw client moving the same bytes.
    const cpu = { encode: [] as number[], sha: [] as number[], decode: [] as number[] };
    let bytes: Uint8Array = new Uint8Array(0);
    for (let r = 0; r < ROUNDS; r++) {
      let t0 = performance.now();
      bytes = encodeWeightPayload(weights, { version: r, step: 0, configHash: hash }, shapes);
      cpu.encode.push(performance.now() - t0);
      t0 = performance.now();
      sha256Hex(bytes);
      cpu.sha.push(performance.now() - t0);
      t0 = performance.now();
      decodeWeightPayload(bytes, { shapes, dtype: 'float32' });
      cpu.decode.push(performance.now() - t0);
    }
    // The raw client with its default pure-JS sha256, then with node:crypto (what weight sync selects).
    const os = await learner.objm.open(OBJECT_STORES.weights);
    const remote = await sampler.objm.open(OBJECT_STORES.weights);
    const raw: Record<string, number[]> = {};
    const rawArms = [['native sha256, 1 MiB chunks', 'native', 1024 * 1024], ['native sha256, 4 MiB chunks', 'native', 4 * 1024 * 1024]] as Array<[string, 'js' | 'native', number]>;
    if (process.env.BENCH_RAW_JS === '1') rawArms.unshift(['js sha256, 128 KiB chunks', 'js', 128 * 1024]);
    for (const [label, backend, chunk] of rawArms) {
      setSha256Backend(backend);
      raw[label] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const t0 = performance.now();
        await os.putBlob({ name: `bench/raw-${r}`, options: { max_chunk_size: chunk } }, bytes);
        const got = await remote.getBlob(`bench/raw-${r}`);
        raw[label]!.push(performance.now() - t0);
        if (got?.length !== bytes.length) throw new WeightTransportError(`raw round trip returned ${got?.length} of ${bytes.length} bytes`);
        await os.delete(`bench/raw-${r}`);
      }
    }

    // Weight sync, several watchers (each on its own connection, as samplers on other hosts). Each arm's watchers are
    // started before its publish and stopped after, so only they receive it (and do its work); the arms alternate
    // publish by publish on the same server, so load drifts hit them alike. The "before" arms are the previous
    // settings of the same code (checks once the record is in, which also turns off applying hand-overs before it,
    // 1 MiB chunks, one upload chunk in flight); both have the publisher's other changes.
    const conns = await Promise.all(Array.from({ length: WATCHERS }, (_, i) => openConnection(cfg.nats, `bench-sampler-${i}`)));
    const OLD_CHUNK = 1024 * 1024;
    const remoteBus = await RemoteWatchers.start(server.url, WATCHERS, 'bus');
    const remoteStore = await RemoteWatchers.start(server.url, WATCHERS, 'store');
    const arm = (publisher: Partial<ConstructorParameters<typeof WeightPublisher>[1]>, checkEarly: boolean, bus = true, remote: RemoteWatchers | null = null) => ({
      remote,
      // A publisher per publish: the arms share the KV key, so a kept one would find its last record overwritten by
      // another arm's and pay a failed compare-and-set; a fresh one reads KV first (one round trip, timed below).
      // Without `bus`, the publisher's connection has no core client (`nc`), so nothing is pushed over the bus: a host
      // whose samplers are all in the learner's process.
      publisher: () => new WeightPublisher(bus ? learner : { kvm: learner.kvm, objm: learner.objm }, { modelConfig: model, shapes, ...publisher }), checkEarly,
      publish: [] as number[], each: [] as number[], all: [] as number[], seen: [] as number[], encode: [] as number[], upload: [] as number[], record: [] as number[],
      used: 0, missed: 0, early: 0,
    });
    const arms = {
      store: arm({ live: false, chunkBytes: OLD_CHUNK }, false),
      busBefore: arm({ liveLocal: false, chunkBytes: OLD_CHUNK, uploadWindow: 1 }, false),
      bus: arm({ liveLocal: false }, true),
      localBefore: arm({ chunkBytes: OLD_CHUNK, uploadWindow: 1 }, false),
      local: arm({}, true),
      localOnly: arm({}, true, false),
      // Watchers in another process (another host): what they apply comes by the bus push or the download, after the record.
      remoteBus: arm({ liveLocal: false }, true, true, remoteBus),
      remoteStore: arm({ live: false }, true, true, remoteStore),
    };
    // The KV read a learner's publisher skips after its first publish.
    const kvRead: number[] = [];
    const { kv } = await openWeightStores(learner);
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = performance.now();
      await readPolicyRecord(kv);
      kvRead.push(performance.now() - t0);
    }
    let v = 0;
    for (let r = 0; r < PUBLISHES; r++) {
      for (const a of Object.values(arms)) {
        if (a.remote !== null) {
          await a.remote.watch(v);
          v++;
          weights.get('norm.weight')![0] = v;
          const t0 = epochMs();
          const res = await a.publisher().publish(weights, { version: v, step: v });
          a.publish.push(epochMs() - t0);
          a.encode.push(res.timings.encodeMs);
          a.upload.push(res.timings.uploadMs);
          a.record.push(res.timings.recordMs);
          const at = await a.remote.applied(v, WATCHERS);
          for (const t of at) a.each.push(t - t0);
          a.all.push(Math.max(...at) - t0);
          await a.remote.unwatch();
          continue;
        }
        const seen = watchers0();
        const got = conns.map(() => signal());
        const watchers = await Promise.all(conns.map((c, i) => WeightWatcher.start(c, {
          shapes, modelConfig: model, fromVersion: v, checkEarly: a.checkEarly,
          onSeen: () => void (seen[i] = performance.now()), onWeights: () => got[i]!.resolve(performance.now()),
        })));
        v++;
        weights.get('norm.weight')![0] = v; // a different payload each round
        const t0 = performance.now();
        const res = await a.publisher().publish(weights, { version: v, step: v });
        a.publish.push(performance.now() - t0);
        a.encode.push(res.timings.encodeMs);
        a.upload.push(res.timings.uploadMs);
        a.record.push(res.timings.recordMs);
        const at = await Promise.all(got.map((g) => g.promise));
        for (const [i, t] of at.entries()) {
          a.each.push(t - t0);
          // record in → applied: what is left on the watcher's side (none when it applied a hand-over before the record)
          if (Number.isFinite(seen[i])) a.seen.push(t - seen[i]!);
        }
        a.all.push(Math.max(...at) - t0);
        for (const w of watchers) {
          a.used += w.liveStats!.used;
          a.missed += w.liveStats!.missed;
        }
        await Promise.all(watchers.map((w) => w.stop()));
      }
    }
    remoteBus.close();
    remoteStore.close();
    await Promise.all([learner.close(), sampler.close(), ...conns.map((c) => c.close())]);

    const arm95 = (a: typeof arms.store): Record<string, number | null> => ({
      publish_p50_ms: median(a.publish), apply_p50_ms: pct(a.each, 50), apply_p95_ms: pct(a.each, 95), all_p95_ms: pct(a.all, 95),
      record_to_applied_p50_ms: a.seen.length === 0 ? null : pct(a.seen, 50), applied_before_record: a.remote === null ? a.each.length - a.seen.length : 0, encode_p50_ms: median(a.encode), upload_p50_ms: median(a.upload), record_p50_ms: median(a.record),
      pushed_used: a.used, downloaded: a.missed,
    });
    const figures = {
      params, bytes: bytes.length, rounds: ROUNDS, publishes: PUBLISHES, watchers: WATCHERS, loadavg: loadavg()[0],
      kv_read_ms: median(kvRead), encode_ms: median(cpu.encode), sha256_ms: median(cpu.sha), decode_check_ms: median(cpu.decode),
      raw_put_get_ms: Object.fromEntries(Object.entries(raw).map(([k, xs]) => [k, median(xs)])),
      arms: Object.fromEntries(Object.entries(arms).map(([k, a]) => [k, arm95(a)])),
      p95_ratio_bus_before_over_after: pct(arms.busBefore.each, 95) / pct(arms.bus.each, 95),
      p95_ratio_local_before_over_after: pct(arms.localBefore.each, 95) / pct(arms.local.each, 95),
      // The target is the default settings' in-process path (a learner and its samplers on one host, `--role all`).
      p95_target_met: pct(arms.local.each, 95) < 100,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
    console.log(`model: ${params.toLocaleString()} parameters, ${(bytes.length / 1e6).toFixed(1)} MB safetensors; load average ${figures.loadavg.toFixed(1)}`);
    console.log(`  CPU, median of ${ROUNDS}: encode ${ms(figures.encode_ms)}   sha256 ${ms(figures.sha256_ms)}   decode+check ${ms(figures.decode_check_ms)}`);
    for (const [label, xs] of Object.entries(raw)) console.log(`  raw object store put+get, ${label}: ${ms(median(xs))}`);
    console.log(`  KV read of the record (skipped by a learner's publisher after its first publish): ${ms(figures.kv_read_ms)}`);
    console.log(`  publish → applied, ${WATCHERS} watchers on their own connections, ${PUBLISHES} publishes per arm, interleaved:`);
    console.log('                          publish p50  apply p50  apply p95  all p95  record→applied p50  encode/upload/record p50  before record');
    const labels = {
      store: 'object-store download', busBefore: 'bus push, before', bus: 'bus push', localBefore: 'in-process, before', local: 'in-process', localOnly: 'in-process, no bus',
      remoteBus: 'other process, bus push', remoteStore: 'other process, download',
    } as const;
    for (const [k, a] of Object.entries(arms) as Array<[keyof typeof arms, typeof arms.store]>) {
      const f = arm95(a);
      console.log(`  ${labels[k].padEnd(23)} ${ms(f.publish_p50_ms!).padStart(11)} ${ms(f.apply_p50_ms!).padStart(10)} ${ms(f.apply_p95_ms!).padStart(10)} ${ms(f.all_p95_ms!).padStart(9)} ${(f.record_to_applied_p50_ms === null ? '-' : ms(f.record_to_applied_p50_ms!)).padStart(19)}   ${`${f.encode_p50_ms!.toFixed(0)}/${f.upload_p50_ms!.toFixed(0)}/${f.record_p50_ms!.toFixed(0)} ms`.padEnd(24)} ${f.applied_before_record}/${a.each.length}`);
    }
    console.log(`  p95 before / after: bus push ${figures.p95_ratio_bus_before_over_after.toFixed(2)}x, in-process ${figures.p95_ratio_local_before_over_after.toFixed(2)}x; in-process p95 ${figures.p95_target_met ? 'meets' : 'misses'} the 100 ms target (load average ${figures.loadavg.toFixed(1)} on ${cpus().length} cores)`);
    console.log(`  peak RSS ${figures.peak_rss_mb} MB`);
    console.log(JSON.stringify(figures));
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
