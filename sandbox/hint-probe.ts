// The hint-word probe of the hint-leak stage: agents that play one constant action taken from the episode's own
// hint (the whole hint, its i-th number, its i-th word) must score low. A hint that *is* the answer ("the code is
// 4711") passes the verbatim check whenever the oracle needs more than one try, and is caught here instead.

/** Probe policies per hint: 1 whole-hint agent, then these many number agents and word agents. */
export const HINT_PROBE_NUMBERS = 6;
export const HINT_PROBE_WORDS = 8;
const MAX_PROBE_ACTION = 200;

/** The name of each probe policy, in the order `hintProbeActions` returns their actions. */
export function hintProbeNames(): string[] {
  return [
    'the whole hint',
    ...Array.from({ length: HINT_PROBE_NUMBERS }, (_, i) => `number ${i + 1} of the hint`),
    ...Array.from({ length: HINT_PROBE_WORDS }, (_, i) => `word ${i + 1} of the hint`),
  ];
}

/**
 * The constant action of every probe policy for one hint; null where the hint has no such number or word (that
 * policy scores 0 on this instance). Numbers keep their sign and decimals; words are letter/digit runs, in order,
 * without repeats.
 */
export function hintProbeActions(hint: string): (string | null)[] {
  const numbers = [...new Set(hint.match(/-?\d+(?:\.\d+)?/g) ?? [])];
  const words = [...new Set(hint.match(/[\p{L}\p{N}]+/gu) ?? [])];
  const whole = hint.trim().slice(0, MAX_PROBE_ACTION);
  return [
    whole.length > 0 ? whole : null,
    ...Array.from({ length: HINT_PROBE_NUMBERS }, (_, i) => numbers[i] ?? null),
    ...Array.from({ length: HINT_PROBE_WORDS }, (_, i) => words[i] ?? null),
  ];
}
