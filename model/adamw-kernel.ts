// The AdamW update and the gradient's sum of squares in WebAssembly SIMD (model/adamw-kernel.wat), four f32 lanes a
// step: several times the JavaScript loop's speed, which spent its time on float64 arithmetic rather than memory.
// The parameters, gradients and moments stay in the caller's arrays. Each call copies them through a small scratch
// area of the kernel's own memory in chunks that fit the core's cache, so main memory sees every array read once and
// written once, as in the plain loop.
import { ADAMW_KERNEL_WASM } from './adamw-kernel-wasm.js';

/** Elements per chunk: four arrays of 8,192 f32 (128 KiB) sit in L2 while the kernel works on them. */
const CHUNK = 8192;
const BYTES = 4;

// The parts of the WebAssembly API used here (this project's lib settings do not declare it).
interface WasmMemory { readonly buffer: ArrayBuffer; grow(pages: number): number }
declare const WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object) => { exports: unknown } };

interface Exports {
  memory: WasmMemory;
  sumsq(x: number, n: number): number;
  update(p: number, g: number, m: number, v: number, n: number, clip: number, b1: number, b2: number, shrink: number, step: number, inv: number, eps: number): void;
}

let compiled: object | null = null;
const kernelModule = (): object => (compiled ??= new WebAssembly.Module(Buffer.from(ADAMW_KERNEL_WASM, 'base64')));

/** One update's scalars, as AdamW computes them per step. */
export interface AdamWCoefficients {
  clipScale: number;
  beta1: number;
  beta2: number;
  /** 1 − lr · weight decay, or 1 for a parameter without decay. */
  shrink: number;
  /** lr / (1 − β1^t). */
  stepSize: number;
  /** 1 / √(1 − β2^t). */
  invBiasCorrection2Sqrt: number;
  eps: number;
}

export class AdamWKernel {
  private readonly k: Exports;
  private readonly scratch: Float32Array;
  // Scratch offsets (in elements) of p, g, m and v.
  private static readonly P = 0;
  private static readonly G = CHUNK;
  private static readonly M = 2 * CHUNK;
  private static readonly V = 3 * CHUNK;

  constructor() {
    this.k = new WebAssembly.Instance(kernelModule()).exports as unknown as Exports;
    const need = 4 * CHUNK * BYTES;
    const have = this.k.memory.buffer.byteLength;
    if (have < need) this.k.memory.grow(Math.ceil((need - have) / 65536));
    this.scratch = new Float32Array(this.k.memory.buffer, 0, 4 * CHUNK);
  }

  /** Σ x², accumulated in float64. */
  sumOfSquares(x: Float32Array): number {
    const { scratch: s, k } = this;
    let sum = 0;
    for (let at = 0; at < x.length; at += CHUNK) {
      const end = Math.min(x.length, at + CHUNK);
      s.set(x.subarray(at, end), AdamWKernel.G);
      sum += k.sumsq(AdamWKernel.G * BYTES, end - at);
    }
    return sum;
  }

  /** Updates p, m and v in place from g; all four have the same length. */
  update(p: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, c: AdamWCoefficients): void {
    const { scratch: s, k } = this;
    const { P, G, M, V } = AdamWKernel;
    for (let at = 0; at < p.length; at += CHUNK) {
      const end = Math.min(p.length, at + CHUNK), n = end - at;
      s.set(p.subarray(at, end), P);
      s.set(g.subarray(at, end), G);
      s.set(m.subarray(at, end), M);
      s.set(v.subarray(at, end), V);
      k.update(P * BYTES, G * BYTES, M * BYTES, V * BYTES, n,
        c.clipScale, c.beta1, c.beta2, c.shrink, c.stepSize, c.invBiasCorrection2Sqrt, c.eps);
      p.set(s.subarray(P, P + n), at);
      m.set(s.subarray(M, M + n), at);
      v.set(s.subarray(V, V + n), at);
    }
  }
}
