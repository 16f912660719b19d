// The copy test for knob edits (loop.designer.output 'knobs'): a designed environment is a copy when its code, with
// the spec name left out, is a library module's or an earlier accepted environment's, byte for byte. A knob edit
// changes only the name and knob values, so this is "the same settings under another name". Code similarity
// (eval/novelty.ts, the test for whole modules) would call every knob edit a copy: one or two changed constants
// leave far more than its threshold of trigrams in common, by design.
import { specNameOf } from '../designer/knobs.js';
import type { CopyIndex } from './copies.js';

/** The code with the spec name's value cut out: equal for two modules that differ in their name only. */
export function settingKey(code: string): string {
  const name = specNameOf(code);
  return name ? code.slice(0, name.start) + code.slice(name.end) : code;
}

/** An index over `library` (`family/name` keys) that remembers each accepted environment it is asked about. */
export function settingIndex(library: readonly { family: string; name: string; code: string }[]): CopyIndex {
  const libraryKeys = new Map(library.map((e) => [settingKey(e.code), `${e.family}/${e.name}`]));
  const accepted = new Map<string, string>();
  return {
    threshold: 1,
    accept(envId, code) {
      const key = settingKey(code);
      const lib = libraryKeys.get(key) ?? null, earlier = accepted.get(key) ?? null;
      if (earlier === null) accepted.set(key, envId);
      return { libraryCopyOf: lib, maxLibrarySimilarity: lib ? 1 : 0, nearestLibrary: lib, maxAcceptedSimilarity: earlier ? 1 : 0, nearestAccepted: earlier };
    },
  };
}
