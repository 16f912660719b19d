// Picks the onnxruntime execution provider from config ('cpu' | 'webgpu' | 'cuda') and proves it
// works here by running a one-node model, so a missing driver fails at start, not mid-training.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import onnxProto from 'onnx-proto';
import ort from 'onnxruntime-node';
import { ModelError, ProviderInitError, ProviderUnavailableError } from './errors.js';

export const EXECUTION_PROVIDERS = ['cpu', 'webgpu', 'cuda'] as const;
export type ExecutionProviderName = (typeof EXECUTION_PROVIDERS)[number];

export interface ProviderInfo {
  name: ExecutionProviderName;
  /** Part of the onnxruntime-node package itself (cpu, and webgpu on Linux x64). */
  bundled: boolean;
  /** Its libraries are on disk (always for bundled ones; cuda only after an opt-in install). */
  installed: boolean;
}

export interface ResolvedProvider {
  name: ExecutionProviderName;
  /** Pass as the session's executionProviders (GraphRunner / ModelSession options). */
  executionProviders: string[];
}

/** What a GPU host runs to get the CUDA provider (scripts/setup.sh skips the download by default: ONNXRUNTIME_NODE_INSTALL=skip). */
export const CUDA_INSTALL_HINT = 'on a CUDA 12 host run `ONNXRUNTIME_NODE_INSTALL=cuda12 npm rebuild onnxruntime-node`';

const require = createRequire(import.meta.url);

function bindingDir(): string {
  return join(dirname(require.resolve('onnxruntime-node/package.json')), 'bin', 'napi-v6', process.platform, process.arch);
}

/** The providers of EXECUTION_PROVIDERS this onnxruntime-node build knows, and whether each is installed. */
export function listExecutionProviders(): ProviderInfo[] {
  const dir = bindingDir();
  const out: ProviderInfo[] = [];
  for (const b of ort.listSupportedBackends()) {
    const name = b.name as ExecutionProviderName;
    if (!EXECUTION_PROVIDERS.includes(name)) continue;
    // A non-bundled provider is a shared library next to the binding, put there by the install script.
    const installed = b.bundled || ['so', 'dll'].some((ext) => existsSync(join(dir, `${ext === 'so' ? 'lib' : ''}onnxruntime_providers_${name}.${ext}`)));
    out.push({ name, bundled: b.bundled, installed });
  }
  return out;
}

/** Names of the providers that are installed (they may still fail to start without a driver). */
export function availableExecutionProviders(): ExecutionProviderName[] {
  return listExecutionProviders().filter((p) => p.installed).map((p) => p.name);
}

const probes = new Map<ExecutionProviderName, Promise<void>>();

/**
 * Checks that `name` is a provider this build has and that a session can run on it, and returns
 * the session options to use. Throws ProviderUnavailableError (unknown or not installed) or
 * ProviderInitError (installed but cannot start here), both listing the available providers.
 */
export async function resolveExecutionProvider(name: string): Promise<ResolvedProvider> {
  const known = listExecutionProviders();
  const available = known.filter((p) => p.installed).map((p) => p.name);
  const info = known.find((p) => p.name === name);
  if (!EXECUTION_PROVIDERS.includes(name as ExecutionProviderName)) {
    throw new ProviderUnavailableError(name, available, `unknown name (expected one of ${EXECUTION_PROVIDERS.join(', ')})`);
  }
  if (info === undefined) {
    throw new ProviderUnavailableError(name, available, `this onnxruntime-node build for ${process.platform}-${process.arch} does not support it`);
  }
  if (!info.installed) {
    throw new ProviderUnavailableError(name, available, `its libraries are not installed in ${bindingDir()}; ${name === 'cuda' ? CUDA_INSTALL_HINT : 'reinstall onnxruntime-node with it'}`);
  }
  const p = info.name;
  let probe = probes.get(p);
  if (probe === undefined) {
    probe = runProbe(p);
    probes.set(p, probe);
  }
  try {
    await probe;
  } catch (cause) {
    throw new ProviderInitError(p, available, explain(p, cause), cause);
  }
  return { name: p, executionProviders: [p] };
}

function explain(name: ExecutionProviderName, cause: unknown): string {
  const raw = String((cause as Error)?.message ?? cause).trim().split('\n')[0]!;
  const said = raw.replace(/^.*?(adapter_result|Failed|failed)/, '$1').slice(0, 300);
  if (name === 'webgpu') {
    return `no usable WebGPU adapter (onnxruntime's WebGPU runs on Dawn over Vulkan: it needs a GPU and its Vulkan driver, libvulkan.so.1); onnxruntime said: ${said}`;
  }
  if (name === 'cuda') return `the CUDA provider could not start (needs an NVIDIA GPU, driver, CUDA 12 and cuDNN 9); onnxruntime said: ${said}`;
  return `onnxruntime said: ${said}`;
}

/** Creates a session for y = x + x on the provider alone and runs it once. */
async function runProbe(name: ExecutionProviderName): Promise<void> {
  const session = await ort.InferenceSession.create(PROBE_MODEL, { executionProviders: [name], logSeverityLevel: 3 });
  try {
    const out = await session.run({ x: new ort.Tensor('float32', Float32Array.of(1, 2), [2]) });
    const y = out.y?.data as Float32Array | undefined;
    if (y?.[0] !== 2 || y[1] !== 4) {
      throw new ModelError(`probe computed ${y ? [...y].join(',') : 'nothing'} for 2·[1, 2]`, { code: 'PROVIDER_PROBE' });
    }
  } finally {
    await session.release();
  }
}

const PROBE_MODEL: Uint8Array = (() => {
  const { onnx } = onnxProto;
  const vec = { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: [{ dimValue: 2 }] } } };
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    producerName: 'spade-provider-probe',
    graph: { name: 'probe', node: [{ opType: 'Add', input: ['x', 'x'], output: ['y'] }], input: [{ name: 'x', type: vec }], output: [{ name: 'y', type: vec }] },
  });
  return onnx.ModelProto.encode(model).finish();
})();
