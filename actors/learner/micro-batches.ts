// Splits a minibatch's rows into the passes (micro-batches) the training graph runs. A pass is as wide as its longest
// row, so a short row beside long ones trains padding. Rows are sorted by length and cut into runs where the padding a
// cut saves outweighs what one more pass costs (`passTokens`, in padded tokens): an exact dynamic programme over the
// sorted order, within the bounds of rows × longest (`budget`) and rows × longest² (`cells`, attention memory).
import type { Row } from './rows.js';

/**
 * What one more pass costs, in padded tokens, when nothing says otherwise: onnxruntime's per-run work (the weights'
 * feeds, the gradients' copies out) against a token's. Measured at about 15 tokens on one thread, where 0 was fastest,
 * and 128 was fastest on two (docs/loop.md, batching.microBatchPassTokens). At 0 every distinct length is its own
 * pass; very large, as few passes as the bounds allow.
 */
export const DEFAULT_PASS_TOKENS = 64;

/**
 * Micro-batches of `rows`, longest first: each within `budget` tokens (rows × longest) and `cells` (rows × longest²),
 * a single row over either going alone, with the fewest padded tokens plus `passTokens` per pass.
 */
export function microBatches(rows: readonly Row[], budget: number, cells = Infinity, passTokens = DEFAULT_PASS_TOKENS): Row[][] {
  const sorted = [...rows].sort((a, b) => b.tokens.length - a.tokens.length);
  const n = sorted.length;
  const width = (i: number): number => sorted[i]!.tokens.length;
  // cost[j]: the cheapest split of sorted[0..j); from[j]: where its last pass starts.
  const cost = new Float64Array(n + 1).fill(Infinity), from = new Int32Array(n + 1);
  cost[0] = 0;
  for (let j = 1; j <= n; j++) {
    // The last pass is sorted[i..j), as wide as sorted[i]; widening it (i down) only grows rows and width.
    for (let i = j - 1; i >= 0; i--) {
      const rowsIn = j - i, w = width(i);
      if (rowsIn > 1 && (rowsIn * w > budget || rowsIn * w * w > cells)) break;
      const c = cost[i]! + rowsIn * w + passTokens;
      if (c <= cost[j]!) {
        cost[j] = c; // ties go to the longer pass: fewer runs for the same tokens
        from[j] = i;
      }
    }
  }
  const out: Row[][] = [];
  for (let j = n; j > 0; j = from[j]!) out.push(sorted.slice(from[j]!, j));
  return out.reverse();
}
