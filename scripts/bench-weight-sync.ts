// `npm run bench:weight-sync`: publish → apply latency of a ~3.3M-parameter model (13 MB of F32) through the object
// store and KV, against the raw object-store put + get of the same bytes in the same run (client defaults, and with
// the native sha256 that weight sync selects). Ends with one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
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

    // Weight sync: publish() duration, and publish start → onWeights on the other connection.
    let arrived: ((v: number) => void) | null = null;
    const watcher = await WeightWatcher.start(sampler, { shapes, modelConfig: model, onWeights: (_w, v) => arrived?.(v) });
    const publisher = new WeightPublisher(learner, { modelConfig: model, shapes });
    const publish: number[] = [], apply: number[] = [];
    for (let v = 1; v <= ROUNDS; v++) {
      weights.get('norm.weight')![0] = v; // a different payload each round
      const got = new Promise<number>((resolve) => (arrived = resolve));
      const t0 = performance.now();
      await publisher.publish(weights, { version: v, step: v });
      publish.push(performance.now() - t0);
      await got;
      apply.push(performance.now() - t0);
    }
    await watcher.stop();
    await learner.close();
    await sampler.close();

    const rawJs = median(raw['js sha256, 128 KiB chunks']!);
    const rawNative = median(raw['native sha256, 1 MiB chunks']!);
    const figures = {
      params, bytes: bytes.length, rounds: ROUNDS,
      encode_ms: median(cpu.encode), sha256_ms: median(cpu.sha), decode_check_ms: median(cpu.decode),
      raw_put_get_js_sha_ms: rawJs, raw_put_get_native_128k_ms: median(raw['native sha256, 128 KiB chunks']!), raw_put_get_native_1m_ms: rawNative,
      publish_ms: median(publish), publish_to_apply_ms: median(apply),
      speedup_vs_raw_default: rawJs / median(apply), ratio_vs_raw_native: median(apply) / rawNative,
      apply_mb_per_s: bytes.length / 1e6 / (median(apply) / 1000),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
    console.log(`model: ${params.toLocaleString()} parameters, ${(bytes.length / 1e6).toFixed(1)} MB safetensors; median of ${ROUNDS}`);
    console.log(`  encode ${ms(figures.encode_ms)}   sha256 ${ms(figures.sha256_ms)}   decode+check ${ms(figures.decode_check_ms)}`);
    for (const [label, xs] of Object.entries(raw)) console.log(`  raw object store put+get, ${label}: ${ms(median(xs))}`);
    console.log(`  weight sync: publish ${ms(figures.publish_ms)}, publish → applied on the other connection ${ms(figures.publish_to_apply_ms)}`);
    console.log(`  vs raw client defaults: ${figures.speedup_vs_raw_default.toFixed(2)}x faster; vs raw with native sha256: ${figures.ratio_vs_raw_native.toFixed(2)}x the time`);
    console.log(`  throughput ${figures.apply_mb_per_s.toFixed(0)} MB/s   peak RSS ${figures.peak_rss_mb} MB`);
    console.log(JSON.stringify(figures));
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
