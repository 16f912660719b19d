// `npm run bench:weight-sync`: publish → apply latency (p50, p95) of a ~3.3M-parameter model (13 MB of F32) to several
// watchers, the object-store download and the live push side by side in one run, next to the raw object-store put +
// get of the same bytes (client defaults, and with the native sha256 that weight sync selects). Ends with one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { initParameters, parameterShapes, validateDecoderConfig } from '../model/index.js';
import { setSha256Backend } from '@nats-io/obj';
import { WeightPublisher, WeightTransportError, WeightWatcher, configHash, decodeWeightPayload, encodeWeightPayload } from '../weight-sync/index.js';
import { sha256Hex } from '../weight-sync/index.js';
import { loadConfig } from '../runtime/config.js';
import { openConnection } from '../runtime/connection.js';
import { startNatsServer } from '../runtime/nats-server.js';
import { OBJECT_STORES } from '../runtime/subjects.js';
import { ensureTopology } from '../runtime/topology.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 20);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 3);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Nearest-rank percentile. */
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)]!;
const ms = (x: number): string => `${x.toFixed(1)} ms`;

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
    for (const [label, backend, chunk] of [
      ['js sha256, 128 KiB chunks', 'js', 128 * 1024], ['native sha256, 128 KiB chunks', 'native', 128 * 1024], ['native sha256, 1 MiB chunks', 'native', 1024 * 1024],
    ] as const) {
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

    // Weight sync, several watchers (each on its own connection, as samplers on other hosts), alternating per publish
    // between the previous path (the object-store download) and the live push beside the upload: the same watchers,
    // the same server, interleaved so load drifts hit both arms alike.
    const conns = await Promise.all(Array.from({ length: WATCHERS }, (_, i) => openConnection(cfg.nats, `bench-sampler-${i}`)));
    let arrived: Array<(v: number) => void> = [];
    const watchers = await Promise.all(conns.map((c, i) => WeightWatcher.start(c, { shapes, modelConfig: model, onWeights: (_w, v) => arrived[i]?.(v) })));
    const arms = {
      store: { publisher: new WeightPublisher(learner, { modelConfig: model, shapes, live: false }), publish: [] as number[], each: [] as number[], all: [] as number[] },
      bus: { publisher: new WeightPublisher(learner, { modelConfig: model, shapes, liveLocal: false }), publish: [] as number[], each: [] as number[], all: [] as number[] },
      local: { publisher: new WeightPublisher(learner, { modelConfig: model, shapes }), publish: [] as number[], each: [] as number[], all: [] as number[] },
    };
    let v = 0;
    for (let r = 0; r < PUBLISHES; r++) {
      for (const arm of Object.values(arms)) {
        v++;
        weights.get('norm.weight')![0] = v; // a different payload each round
        const got = watchers.map((_, i) => new Promise<number>((resolve) => (arrived[i] = () => resolve(performance.now()))));
        const t0 = performance.now();
        await arm.publisher.publish(weights, { version: v, step: v });
        arm.publish.push(performance.now() - t0);
        const at = await Promise.all(got);
        for (const t of at) arm.each.push(t - t0);
        arm.all.push(Math.max(...at) - t0);
      }
    }
    const live = watchers.map((w) => w.liveStats!);
    await Promise.all(watchers.map((w) => w.stop()));
    arrived = [];
    await Promise.all([learner.close(), sampler.close(), ...conns.map((c) => c.close())]);

    const rawJs = median(raw['js sha256, 128 KiB chunks']!);
    const rawNative = median(raw['native sha256, 1 MiB chunks']!);
    const figures = {
      params, bytes: bytes.length, rounds: ROUNDS, publishes: PUBLISHES, watchers: WATCHERS, loadavg: loadavg()[0],
      encode_ms: median(cpu.encode), sha256_ms: median(cpu.sha), decode_check_ms: median(cpu.decode),
      raw_put_get_js_sha_ms: rawJs, raw_put_get_native_128k_ms: median(raw['native sha256, 128 KiB chunks']!), raw_put_get_native_1m_ms: rawNative,
      store_publish_ms: median(arms.store.publish), store_apply_p50_ms: pct(arms.store.each, 50), store_apply_p95_ms: pct(arms.store.each, 95), store_all_p95_ms: pct(arms.store.all, 95),
      bus_publish_ms: median(arms.bus.publish), bus_apply_p50_ms: pct(arms.bus.each, 50), bus_apply_p95_ms: pct(arms.bus.each, 95), bus_all_p95_ms: pct(arms.bus.all, 95),
      local_publish_ms: median(arms.local.publish), local_apply_p50_ms: pct(arms.local.each, 50), local_apply_p95_ms: pct(arms.local.each, 95), local_all_p95_ms: pct(arms.local.all, 95),
      live_used: live.reduce((n, s) => n + s.used, 0), live_missed: live.reduce((n, s) => n + s.missed, 0),
      p95_ratio_store_over_bus: pct(arms.store.each, 95) / pct(arms.bus.each, 95),
      p95_ratio_store_over_local: pct(arms.store.each, 95) / pct(arms.local.each, 95),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
    console.log(`model: ${params.toLocaleString()} parameters, ${(bytes.length / 1e6).toFixed(1)} MB safetensors; load average ${figures.loadavg.toFixed(1)}`);
    console.log(`  CPU, median of ${ROUNDS}: encode ${ms(figures.encode_ms)}   sha256 ${ms(figures.sha256_ms)}   decode+check ${ms(figures.decode_check_ms)}`);
    for (const [label, xs] of Object.entries(raw)) console.log(`  raw object store put+get, ${label}: ${ms(median(xs))}`);
    console.log(`  publish → applied, ${WATCHERS} watchers on their own connections, ${PUBLISHES} publishes per arm, interleaved:`);
    console.log('                         publish p50   apply p50   apply p95   all-applied p95');
    for (const [label, a] of [['object-store download', arms.store], ['bus push + upload', arms.bus], ['in-process + upload', arms.local]] as const) {
      console.log(`  ${label.padEnd(22)} ${ms(median(a.publish)).padStart(11)} ${ms(pct(a.each, 50)).padStart(11)} ${ms(pct(a.each, 95)).padStart(11)} ${ms(pct(a.all, 95)).padStart(17)}`);
    }
    console.log(`  p95 ratio download / bus push: ${figures.p95_ratio_store_over_bus.toFixed(2)}x, download / in-process: ${figures.p95_ratio_store_over_local.toFixed(2)}x; pushed bytes used ${figures.live_used} times, downloaded ${figures.live_missed} (the download arm's included)`);
    console.log(`  peak RSS ${figures.peak_rss_mb} MB`);
    console.log(JSON.stringify(figures));
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
