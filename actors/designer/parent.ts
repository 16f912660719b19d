// Which module the designer edits. The loop's designer writes a child of one parent (ACCEL-style edits of code; a small
// model edits well and recalls poorly): the first recalled memory entry that carries editable code (retrieval puts
// the frontier first), or, with probability `libraryShare` and whenever memory has none, a seeded pick from the
// library modules it can edit. Pure: entries and library in, the parent out.
import { isEditable } from './knobs.js';
import type { LibraryEnv } from './library-envs.js';
import type { MemoryEntry } from '../loop/memory/memory-entry.js';

export interface Parent {
  code: string;
  /** The memory entry's envId, or `library:<name>` for a library module. */
  id: string;
  name: string;
  family: string;
}

/** The library modules a designer can edit: a one-line spec name, a knob, and code that `fits` (parent and child in the context). */
export function editableLibrary(library: readonly LibraryEnv[], fits: (code: string) => boolean): LibraryEnv[] {
  return library.filter((e) => isEditable(e.code) && fits(e.code));
}

/**
 * Longest parent in tokens: the warm start teaches edits of library modules up to this length (its maxModuleTokens),
 * so the loop offers the same ones; parent and child together stay within the base model's 2560-token context.
 */
export const MAX_PARENT_TOKENS = 1030;

/** A parent fits when it is at most `maxTokens` long and it and a child as long sit in the context beside a ~300-token prompt. */
export function parentFits(policy: { format: { encode(text: string): number[] }; contextLength: number }, maxTokens = MAX_PARENT_TOKENS): (code: string) => boolean {
  return (code) => policy.format.encode(code).length <= Math.min(maxTokens, Math.floor((policy.contextLength - 300) / 2));
}

/** A family drawn uniformly from those of the editable library (sorted, so the draw depends on the seed alone); null without one. */
export function pickFamily(library: readonly { family: string }[], random: () => number): string | null {
  const families = [...new Set(library.map((e) => e.family))].sort();
  return families.length ? families[Math.floor(random() * families.length)]! : null;
}

export function pickParent(recalled: readonly MemoryEntry[], library: readonly LibraryEnv[], libraryShare: number, random: () => number): Parent | null {
  const fromMemory = recalled.find((e) => e.code !== undefined && isEditable(e.code));
  const useLibrary = library.length > 0 && (!fromMemory || random() < libraryShare);
  if (useLibrary) {
    const e = library[Math.floor(random() * library.length)]!;
    return { code: e.code, id: `library:${e.name}`, name: e.name, family: e.family };
  }
  return fromMemory ? { code: fromMemory.code!, id: fromMemory.envId, name: fromMemory.name, family: fromMemory.family } : null;
}
