// Picks the next token from one row of log-probs: temperature, nucleus (top-p) truncation, seeded draw.
// Pure, so the sampler's randomness is testable without a model.

export interface PickOptions {
  /** 0 = greedy. */
  temperature: number;
  /** Keep the smallest set of most likely tokens whose probability reaches topP (1 = all). */
  topP: number;
}

export interface Pick {
  token: number;
  /** Log-probability of the token under the distribution it was actually drawn from (after temperature and top-p). */
  sampleLogprob: number;
}

/** Deterministic uniform [0, 1) generator (mulberry32). */
export function seededUniform(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Reused across calls (picking is synchronous), so a batch step allocates nothing per row. */
let scratch = new Float64Array(0);

export function pickToken(logp: ArrayLike<number>, o: PickOptions, uniform: () => number): Pick {
  const V = logp.length;
  if (o.temperature === 0) {
    let best = 0;
    for (let i = 1; i < V; i++) if (logp[i]! > logp[best]!) best = i;
    return { token: best, sampleLogprob: 0 };
  }
  const T = o.temperature;
  // x / T is monotonic for T > 0, so the largest quotient is the quotient of the largest value.
  let top = -Infinity;
  for (let i = 0; i < V; i++) if (logp[i]! > top) top = logp[i]!;
  const max = T === 1 ? top : top / T;
  if (scratch.length < V) scratch = new Float64Array(V);
  const p = scratch;
  let z = 0;
  if (T === 1) for (let i = 0; i < V; i++) z += p[i] = Math.exp(logp[i]! - max);
  else for (let i = 0; i < V; i++) z += p[i] = Math.exp(logp[i]! / T - max);
  return draw(p, V, z, o.topP, uniform);
}

/**
 * pickToken's draw at temperature > 0 from a row already at its temperature (the sampling graph's probs_last,
 * float32): the same nucleus and scan, without an exp per token. It draws from the same distribution as pickToken
 * on that row's log-probs; a token differs only where the uniform falls within float32 rounding of a boundary.
 */
export function pickFromProbs(probs: Float32Array | Float64Array, topP: number, uniform: () => number): Pick {
  const V = probs.length;
  let z = 0;
  for (let i = 0; i < V; i++) z += probs[i]!;
  return draw(probs, V, z, topP, uniform);
}

/** Draws from the unnormalised weights p[0..V) (sum z), within the top-p nucleus. */
function draw(p: Float32Array | Float64Array, V: number, z: number, topP: number, uniform: () => number): Pick {
  // Nucleus: the smallest threshold whose tokens (p >= threshold, ties included) hold topP of the mass. A native
  // numeric sort of the values is several times faster than sorting indices with a comparator.
  let threshold = 0, mass = z;
  if (topP < 1) {
    const sorted = p.slice(0, V).sort();
    let acc = 0;
    for (let k = V - 1; k >= 0; k--) {
      acc += sorted[k]!;
      threshold = sorted[k]!;
      if (acc >= topP * z) break;
    }
    mass = 0;
    for (let i = 0; i < V; i++) if (p[i]! >= threshold) mass += p[i]!;
  }
  let r = uniform() * mass;
  let token = -1;
  for (let i = 0; i < V; i++) {
    if (p[i]! < threshold) continue;
    token = i; // the last eligible token absorbs rounding at the end of the scan
    r -= p[i]!;
    if (r < 0) break;
  }
  return { token, sampleLogprob: Math.log(p[token]! / mass) };
}
