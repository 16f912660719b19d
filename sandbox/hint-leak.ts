// The hint-leak check: a privileged hint must not spell out the oracle's winning action sequence verbatim.

function tokens(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * True when the hint contains the actions' tokens as one contiguous run (case, spacing and punctuation ignored).
 * Sequences shorter than two characters of tokens are ignored: a single digit in a hint is not a leak.
 */
export function hintLeaks(hint: string, actions: readonly string[]): boolean {
  const seq = actions.flatMap(tokens);
  if (seq.join('').length < 2) return false;
  const h = tokens(hint);
  outer: for (let i = 0; i + seq.length <= h.length; i++) {
    for (let j = 0; j < seq.length; j++) if (h[i + j] !== seq[j]) continue outer;
    return true;
  }
  return false;
}
