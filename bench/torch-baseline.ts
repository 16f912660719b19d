// Runs bench/torch_baseline.py (Debian's python3-torch, eager, CPU) on a model directory the engine exported, after
// making sure torch and OpenBLAS are installed: without libopenblas0-pthread Debian's torch falls back to the
// reference BLAS (about 6 GFLOP/s) and a comparison would mean nothing. Bench-only: never a product dependency.
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { repoPath } from '../runtime/paths.js';

const run = promisify(execFile);
/** Debian's interpreter: the torch package is installed for it, not for a pyenv or venv python on the PATH. */
const PYTHON = '/usr/bin/python3';

export interface TorchBaselineOptions {
  batch: number;
  time: number;
  repeats: number;
  newTokens: number;
  rows: number[];
  /** torch.set_num_threads; 0 = torch's default. */
  threads: number;
}

export interface TorchBaselineResult {
  torch: string;
  threads: number;
  /** One training step's time per thread count tried; `threads` is the faster. */
  threadProbeMs: Record<string, number>;
  /** OMP_WAIT_POLICY and OPENBLAS_NUM_THREADS the script ran with. */
  env?: Record<string, string | undefined>;
  /** torch's build-time BLAS_INFO, and the libblas.so.3 the system resolves at run time. */
  blas: string;
  blasLibrary: string;
  logp: number[];
  trainStepMs: number;
  trainStepMsRounds: number[];
  sampling: Record<string, { tokensPerSec: number; msRounds: number[] }>;
}

async function sh(cmd: string, args: string[]): Promise<string> {
  const { stdout } = await run(cmd, args, { maxBuffer: 1 << 26 });
  return stdout;
}

async function blasLibrary(): Promise<string> {
  const q = await sh('update-alternatives', ['--query', 'libblas.so.3-x86_64-linux-gnu']).catch(() => '');
  return /^Value: (.*)$/m.exec(q)?.[1] ?? 'unknown';
}

/** Installs python3-torch and libopenblas0-pthread through apt when absent; returns why not when it cannot. */
async function ensureTorch(log: (line: string) => void): Promise<string | null> {
  const hasTorch = await sh(PYTHON, ['-c', 'import torch']).then(() => true, () => false);
  const hasOpenblas = (await blasLibrary()).includes('openblas');
  if (hasTorch && hasOpenblas) return null;
  const missing = [...(hasTorch ? [] : ['python3-torch']), ...(hasOpenblas ? [] : ['libopenblas0-pthread'])];
  log(`torch baseline: installing ${missing.join(' ')} (apt-get; bench only)`);
  try {
    await sh('apt-get', ['install', '-y', '--no-install-recommends', ...missing]);
  } catch (err) {
    return `cannot install ${missing.join(' ')}: ${(err as Error).message.split('\n')[0]}`;
  }
  return null;
}

export async function runTorchBaseline(modelDir: string, o: TorchBaselineOptions, log: (line: string) => void): Promise<TorchBaselineResult | { unavailable: string }> {
  const why = await ensureTorch(log);
  if (why !== null) return { unavailable: why };
  try {
    // Idle OpenMP and OpenBLAS threads wait passively, as the engine's do (allowSpinning false): spinning threads on
    // shared cores take the cycles the work needs. BLAS gets the same thread count as torch's intra-op pool.
    const env = { ...process.env, OMP_WAIT_POLICY: 'PASSIVE', OPENBLAS_NUM_THREADS: String(o.threads || availableParallelism()) };
    const { stdout: out } = await run(PYTHON, [repoPath('bench/torch_baseline.py'), modelDir, JSON.stringify(o)], { maxBuffer: 1 << 26, env });
    const r = JSON.parse(out.trim().split('\n').pop()!) as Omit<TorchBaselineResult, 'blasLibrary'>;
    return { ...r, blasLibrary: await blasLibrary(), env: { OMP_WAIT_POLICY: env.OMP_WAIT_POLICY, OPENBLAS_NUM_THREADS: env.OPENBLAS_NUM_THREADS } };
  } catch (err) {
    return { unavailable: `torch_baseline.py failed: ${(err as Error).message.split('\n').slice(0, 3).join(' ')}` };
  }
}
