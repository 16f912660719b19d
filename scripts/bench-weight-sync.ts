// `npm run bench:weight-sync`: publish → apply latency of a ~3.3M-parameter model (13 MB of F32) through the object
// store and KV, against the raw object-store put + get of the same bytes in the same run. Ends with one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DECODER_CONFIG, initParameters, parameterShapes, validateDecoderConfig } from '../model/decoder.js';
import { WeightPublisher, WeightWatcher, configHash, decodeWeightPayload, encodeWeightPayload, openWeightStores } from '../model/weight-sync.js';
import { sha256Hex } from '../model/weight-payload.js';
import { loadConfig } from '../runtime/config.js';
import { openConnection } from '../runtime/connection.js';
import { startNatsServer } from '../runtime/nats-server.js';
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
    const model = validateDecoderConfig(DEFAULT_DECODER_CONFIG);
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
    const { os } = await openWeightStores(learner);
    const remote = await openWeightStores(sampler);
    const raw: Record<string, number[]> = { '128 KiB chunks': [], '1 MiB chunks': [] };
    for (const [label, chunk] of [['128 KiB chunks', 128 * 1024], ['1 MiB chunks', 1024 * 1024]] as const) {
      for (let r = 0; r < ROUNDS; r++) {
        const t0 = performance.now();
        await os.putBlob({ name: `bench/raw-${r}`, options: { max_chunk_size: chunk } }, bytes);
        const got = await remote.os.getBlob(`bench/raw-${r}`);
        raw[label]!.push(performance.now() - t0);
        if (got?.length !== bytes.length) throw new Error('raw round trip lost bytes'); // eslint-disable-line no-restricted-syntax
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

    const rawMedian = median(raw['1 MiB chunks']!);
    const figures = {
      params, bytes: bytes.length, rounds: ROUNDS,
      encode_ms: median(cpu.encode), sha256_ms: median(cpu.sha), decode_check_ms: median(cpu.decode),
      raw_put_get_128k_ms: median(raw['128 KiB chunks']!), raw_put_get_1m_ms: rawMedian,
      publish_ms: median(publish), publish_to_apply_ms: median(apply),
      ratio_vs_raw_1m: median(apply) / rawMedian,
      apply_mb_per_s: bytes.length / 1e6 / (median(apply) / 1000),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
    console.log(`model: ${params.toLocaleString()} parameters, ${(bytes.length / 1e6).toFixed(1)} MB safetensors; median of ${ROUNDS}`);
    console.log(`  encode ${ms(figures.encode_ms)}   sha256 ${ms(figures.sha256_ms)}   decode+check ${ms(figures.decode_check_ms)}`);
    console.log(`  raw object store put+get: ${ms(figures.raw_put_get_128k_ms)} (128 KiB chunks), ${ms(rawMedian)} (1 MiB chunks)`);
    console.log(`  weight sync: publish ${ms(figures.publish_ms)}, publish → applied on the other connection ${ms(figures.publish_to_apply_ms)}`);
    console.log(`  ratio to raw put+get: ${figures.ratio_vs_raw_1m.toFixed(2)}x   throughput ${figures.apply_mb_per_s.toFixed(0)} MB/s   peak RSS ${figures.peak_rss_mb} MB`);
    console.log(JSON.stringify(figures));
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
