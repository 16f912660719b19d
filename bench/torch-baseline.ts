// Runs bench/torch_baseline.py (Debian's python3-torch, eager, CPU) on a model directory the engine exported, after
// making sure torch and OpenBLAS are installed: without libopenblas0-pthread Debian's torch falls back to the
// reference BLAS (about 6 GFLOP/s) and a comparison would mean nothing. Bench-only: never a product dependency.
import { execFile } from 'node:child_process';
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
    const out = await sh(PYTHON, [repoPath('bench/torch_baseline.py'), modelDir, JSON.stringify(o)]);
    const r = JSON.parse(out.trim().split('\n').pop()!) as Omit<TorchBaselineResult, 'blasLibrary'>;
    return { ...r, blasLibrary: await blasLibrary() };
  } catch (err) {
    return { unavailable: `torch_baseline.py failed: ${(err as Error).message.split('\n').slice(0, 3).join(' ')}` };
  }
}
