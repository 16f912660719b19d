// The documented PRNG of the sandbox: sfc32 seeded through splitmix32 from an integer seed. The same function
// source is installed inside QuickJS as Math.random (see prelude.ts), so host and sandbox streams are identical.

/**
 * Returns a generator of floats in [0, 1) for a safe-integer seed. Self-contained on purpose: its source text is
 * evaluated inside QuickJS, where it must not depend on globals an environment could have replaced.
 */
export function makeRandom(seed: number, imul: (a: number, b: number) => number = Math.imul): () => number {
  const lo = seed % 4294967296;
  const hi = (seed - lo) / 4294967296;
  let x = (lo ^ imul(hi | 0, 0x27d4eb2f)) | 0;
  const mix = (): number => {
    x = (x + 0x9e3779b9) | 0;
    let z = x;
    z = imul(z ^ (z >>> 16), 0x85ebca6b);
    z = imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) | 0;
  };
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

/** Uniform integer in [0, n). */
export function randInt(random: () => number, n: number): number {
  return Math.floor(random() * n);
}

/** Uniform pick from a non-empty array. */
export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}
