// `spade model info|score|generate|export`: look at, score with, sample from and convert any model directory the
// engine runs (a SPADE checkpoint or a Hugging Face llama/qwen2/qwen3 directory).
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { UsageError } from '../runtime/errors.js';
import { numel } from './safetensors.js';
import { parameterShapes } from './decoder.js';
import { exportModel, loadModel, type LoadedModel } from './load-model.js';
import { ModelSession } from './session.js';
import { Sampler } from './sampler/index.js';
import { EXECUTION_PROVIDERS, resolveExecutionProvider, type ExecutionProviderName } from './providers.js';

export const MODEL_USAGE = `Usage:
  spade model info DIR [--json]                          architecture, parameters, dtypes, tokenizer, memory estimate
  spade model score DIR (--ids 1,2,3 | --text "...") [--json] [--provider cpu|webgpu|cuda]
                                                         per-token log-probabilities; --json prints one line
                                                         {"tokens":[...],"logprobs":[...]}, logprobs[i] = log p(token i+1 | tokens 0..i)
  spade model generate DIR --prompt "..." [--max-tokens N] [--temperature T] [--seed N] [--chat] [--provider P]
                                                         sample a continuation (--chat: the prompt is a user turn through
                                                         the model's chat template, the end-of-turn token stops it)
  spade model export CKPT OUT_DIR                        write any checkpoint as a Hugging Face directory
DIR is a SPADE checkpoint or a Hugging Face directory (config.json + safetensors + tokenizer.json).`;

export interface ModelCommandIo {
  stdout: Writable;
  stderr: Writable;
}

/** Entry point the `spade` CLI wires as `spade model ...`; argv excludes "model". */
export async function modelCommand(argv: string[], io: ModelCommandIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    (sub === undefined ? io.stderr : io.stdout).write(`${MODEL_USAGE}\n`);
    return sub === undefined ? 2 : 0;
  }
  const { values: v, positionals: pos } = parse(rest);
  if (v.help) return (io.stdout.write(`${MODEL_USAGE}\n`), 0);
  const out = (line: string): boolean => io.stdout.write(`${line}\n`);
  if (sub === 'export') {
    if (pos.length !== 2) throw new UsageError('model export needs CKPT and OUT_DIR');
    const m = await loadModel(pos[0]!);
    await exportModel(m, pos[1]!);
    const tok = m.spadeTokenizer === undefined ? `tokenizer files copied: ${m.tokenizerFiles?.join(', ') || 'none'}` : 'spade-tokenizer.json alongside';
    out(`wrote ${pos[1]} (${m.hfConfig?.model_type ?? 'llama'} layout, F32; ${tok})`);
    return 0;
  }
  if (pos.length !== 1) throw new UsageError(`model ${sub} needs exactly one DIR`);
  if (sub === 'info') return info(await loadModel(pos[0]!), v.json === true, out);
  if (sub === 'score') return score(await loadModel(pos[0]!), v, out);
  if (sub === 'generate') return generate(await loadModel(pos[0]!), v, out);
  throw new UsageError(`unknown model command "${sub}"`);
}

type Values = ReturnType<typeof parse>['values'];

function parse(args: string[]) {
  try {
    return parseArgs({
      args, allowPositionals: true, strict: true,
      options: {
        json: { type: 'boolean' }, help: { type: 'boolean' }, chat: { type: 'boolean' },
        ids: { type: 'string' }, text: { type: 'string' }, prompt: { type: 'string' },
        'max-tokens': { type: 'string' }, temperature: { type: 'string' }, seed: { type: 'string' }, provider: { type: 'string' },
      },
    });
  } catch (err) {
    throw new UsageError(`model: ${(err as Error).message}`); // parseArgs' own errors are TypeErrors
  }
}

/** Session options for --provider (default cpu); a provider that cannot start here fails now, naming the others. */
async function providerOptions(v: Values): Promise<{ executionProviders: string[] }> {
  const name = v.provider ?? 'cpu';
  if (!(EXECUTION_PROVIDERS as readonly string[]).includes(name)) throw new UsageError(`--provider must be one of ${EXECUTION_PROVIDERS.join(', ')} (got ${JSON.stringify(name)})`);
  return { executionProviders: (await resolveExecutionProvider(name as ExecutionProviderName)).executionProviders };
}

function num(v: string | undefined, flag: string, ok: (n: number) => boolean, what: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!ok(n)) throw new UsageError(`${flag} must be ${what} (got ${JSON.stringify(v)})`);
  return n;
}

function info(m: LoadedModel, json: boolean, out: (s: string) => void): number {
  const c = m.model;
  const parameters = [...parameterShapes(c).values()].reduce((n, s) => n + numel(s), 0);
  const kvBytesPerToken = 2 * c.layers * c.kvHeads * c.headDim * 4;
  const memory = {
    weightsBytes: parameters * 4,
    // Weights, gradients and AdamW's two moments, all F32.
    trainingStateBytes: parameters * 16,
    kvCacheBytesPerToken: kvBytesPerToken,
    kvCacheBytesAtContext: kvBytesPerToken * c.contextLength,
  };
  const t = m.tokenizer;
  const tokenizer = t === undefined ? null : { kind: t.kind, name: t.name, vocabSize: t.vocabSize, chatTemplate: t.encodeChat !== undefined, stopIds: t.stopIds };
  const report = {
    dir: m.dir, format: m.format, modelType: m.hfConfig?.model_type ?? null, model: c, parameters, dtypes: m.dtypes,
    compute: 'float32 (stored dtypes converted on load)', tokenizer, memory, policyVersion: m.policyVersion, step: m.step,
  };
  if (json) return (out(JSON.stringify(report)), 0);
  const mib = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MiB`;
  out(`${m.dir}: ${m.format === 'hf' ? `Hugging Face ${String(report.modelType)}` : 'SPADE checkpoint'} (policy version ${m.policyVersion}, step ${m.step})`);
  out(`  ${c.layers} layers, width ${c.width}, ${c.heads} heads of ${c.headDim} (${c.kvHeads} kv heads), feed-forward ${c.ffnHidden}, vocab ${c.vocab}, context ${c.contextLength}`);
  out(`  rope theta ${c.ropeTheta}${c.ropeScaling ? `, ${c.ropeScaling.type} scaling x${c.ropeScaling.factor}` : ''}; rms eps ${c.normEps}; q/k/v biases ${c.qkvBias ? 'yes' : 'no'}; q/k norms ${c.qkNorm ? 'yes' : 'no'}; head ${c.tiedEmbeddings ? 'tied' : 'untied'}`);
  out(`  ${parameters.toLocaleString('en-US')} parameters, stored ${m.dtypes.join('/')}, computed in float32`);
  out(`  tokenizer: ${t === undefined ? 'none (tokenizer.json absent: use --ids)' : `${t.kind} ${t.name}, ${t.vocabSize} ids, chat template ${t.encodeChat ? 'yes' : 'no'}, stop ids [${t.stopIds.join(', ')}]`}`);
  out(`  memory: weights ${mib(memory.weightsBytes)}; training state ${mib(memory.trainingStateBytes)} (+ activations); KV cache ${(kvBytesPerToken / 1024).toFixed(1)} KiB/token, ${mib(memory.kvCacheBytesAtContext)} at full context per sequence`);
  return 0;
}

async function score(m: LoadedModel, v: Values, out: (s: string) => void): Promise<number> {
  if ((v.ids === undefined) === (v.text === undefined)) throw new UsageError('model score needs exactly one of --ids and --text');
  let ids: number[];
  if (v.ids !== undefined) {
    ids = v.ids.split(',').map((s) => num(s.trim(), '--ids', (n) => Number.isInteger(n) && n >= 0 && n < m.model.vocab, `token ids in [0, ${m.model.vocab})`)!);
  } else {
    if (m.tokenizer === undefined) throw new UsageError(`${m.dir} has no tokenizer: use --ids`);
    ids = m.tokenizer.encode(v.text!);
  }
  if (ids.length < 2 || ids.length > m.model.contextLength) throw new UsageError(`model score needs 2..${m.model.contextLength} tokens (got ${ids.length})`);
  const s = await ModelSession.create(m.model, { graphs: ['score'], ...(await providerOptions(v)) });
  try {
    const T = ids.length;
    const r = await s.score({ tokens: BigInt64Array.from(ids.map(BigInt)), batch: 1, time: T, mask: new Float32Array(T - 1).fill(1) }, m.params);
    const logprobs = [...r.logp];
    if (v.json) return (out(JSON.stringify({ tokens: ids, logprobs })), 0);
    const piece = (id: number): string => JSON.stringify(m.tokenizer?.decode([id]) ?? '');
    out(`${ids[0]} ${piece(ids[0]!)}`);
    for (let i = 1; i < T; i++) out(`${ids[i]} ${piece(ids[i]!)} ${logprobs[i - 1]!.toFixed(4)}`);
    const sum = logprobs.reduce((a, b) => a + b, 0);
    out(`total ${sum.toFixed(4)} over ${T - 1} tokens, mean ${(sum / (T - 1)).toFixed(4)}, perplexity ${Math.exp(-sum / (T - 1)).toFixed(3)}`);
    return 0;
  } finally {
    await s.release();
  }
}

async function generate(m: LoadedModel, v: Values, out: (s: string) => void): Promise<number> {
  if (v.prompt === undefined) throw new UsageError('model generate needs --prompt');
  const t = m.tokenizer;
  if (t === undefined) throw new UsageError(`${m.dir} has no tokenizer to encode --prompt`);
  if (v.chat && t.encodeChat === undefined) throw new UsageError(`${m.dir} has no chat template (tokenizer_config.json chat_template): drop --chat`);
  const maxTokens = num(v['max-tokens'], '--max-tokens', (n) => Number.isInteger(n) && n > 0, 'a positive integer') ?? 64;
  const temperature = num(v.temperature, '--temperature', (n) => Number.isFinite(n) && n >= 0, 'a number >= 0') ?? 0.8;
  const seed = num(v.seed, '--seed', Number.isInteger, 'an integer') ?? 0;
  const prompt = v.chat ? t.encodeChat!([{ role: 'user', content: v.prompt }]) : t.encode(v.prompt);
  const s = await ModelSession.create(m.model, { graphs: ['sample'], ...(await providerOptions(v)) });
  const sampler = new Sampler(s, m.params, m.policyVersion, t, { stopTokens: t.stopIds, seed, maxBatch: 1, prefixCacheBytes: 0 });
  try {
    const r = await sampler.generate({ prompt, maxTokens, temperature });
    out(t.decode(r.tokens.filter((id) => !t.stopIds.includes(id))));
    const mean = r.logprobs.reduce((a, b) => a + b, 0) / Math.max(1, r.logprobs.length);
    out(`(${r.tokens.length} tokens, ${r.finishReason}; prompt ${prompt.length} tokens${v.chat ? ' through the chat template' : ''}; mean log-prob ${mean.toFixed(3)})`);
    return 0;
  } finally {
    await sampler.close();
    await s.release();
  }
}
