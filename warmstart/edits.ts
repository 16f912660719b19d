// The designer's warm-start material: parent → child edits that the sandbox accepts. Each library parent gets
// `perParent` children, each grounded on its own corpus document (the words the prompt shows); a share of them are
// edited again (a grandchild, from a child parent), as the loop edits what it accepted before. Only children that
// pass the loop's validation are kept, so the designer is taught edits that work.
import { DEFAULT_DOC_CHARS } from '../actors/loop/index.js';
import type { SandboxPool } from '../sandbox/index.js';
import { makeRandom } from '../sandbox/index.js';
import type { DocumentSource } from './documents.js';
import type { LibraryEnv } from './library.js';
import { mutate } from './mutate.js';
import { specNameOf } from '../actors/designer/index.js';
import { knobSetting } from './reserved.js';

export interface DesignerEdit {
  /** The library module the lineage starts from. */
  root: string;
  parent: string;
  child: string;
  /** The document as the prompt shows it (cut to the designer's docChars). */
  doc: string;
  edits: string[];
  depth: 1 | 2;
}

export interface EditStats {
  tried: number;
  valid: number;
  /** Failing validation stage → count. */
  rejected: Record<string, number>;
  /** Parents with at least one valid child. */
  parents: number;
  /** Children left out before validation: their spec name (a held-out environment's) or knob setting (a near-tier module's) is reserved. */
  reserved: number;
}

export interface EditPlan {
  perParent: number;
  /** Share of children edited once more into a grandchild. */
  secondEdits: number;
  validationSeeds: number;
  seed: number;
  docChars?: number;
  /** Spec names no child may take: the held-out suite's, so nothing the designer learns shares a name with it. */
  reservedNames?: ReadonlySet<string>;
  /** Library parent → knob settings no module of its lineage may take: the near held-out tier's (reserved.ts). */
  reservedSettings?: Readonly<Record<string, readonly string[]>>;
  /** Share of children whose prose is reworded (mutate's rewordShare; 0 for knob edits, which cannot say it). Default 0.8. */
  rewordShare?: number;
}

export async function designerEdits(pool: SandboxPool, parents: readonly LibraryEnv[], docs: DocumentSource, plan: EditPlan): Promise<{ edits: DesignerEdit[]; stats: EditStats }> {
  const random = makeRandom(plan.seed);
  const docChars = plan.docChars ?? DEFAULT_DOC_CHARS;
  const stats: EditStats = { tried: 0, valid: 0, rejected: {}, parents: 0, reserved: 0 };
  const edits: DesignerEdit[] = [];
  const attempt = async (root: string, parent: string, depth: 1 | 2): Promise<DesignerEdit | null> => {
    const doc = docs.sample(random).text.slice(0, docChars);
    const m = mutate(parent, doc, random, plan.rewordShare);
    if (!m) return null;
    if (plan.reservedNames?.has(specNameOf(m.code)?.name ?? '')) return (stats.reserved++, null);
    if (plan.reservedSettings?.[root]?.includes(knobSetting(m.code))) return (stats.reserved++, null);
    stats.tried++;
    const report = await pool.validate(m.code, { seeds: plan.validationSeeds });
    if (!report.ok) {
      const stage = report.failed ?? 'unknown';
      stats.rejected[stage] = (stats.rejected[stage] ?? 0) + 1;
      return null;
    }
    stats.valid++;
    return { root, parent, child: m.code, doc, edits: m.edits, depth };
  };
  for (const p of parents) {
    const mine: DesignerEdit[] = [];
    // Tries up to 3x the wanted count: some knob values make a module invalid (a probe wins, the oracle loses).
    for (let i = 0; i < plan.perParent * 3 && mine.length < plan.perParent; i++) {
      const e = await attempt(p.name, p.code, 1);
      if (e) mine.push(e);
    }
    const second: DesignerEdit[] = [];
    for (const e of mine) {
      if (random() >= plan.secondEdits) continue;
      const g = await attempt(p.name, e.child, 2);
      if (g) second.push(g);
    }
    if (mine.length > 0) stats.parents++;
    edits.push(...mine, ...second);
  }
  return { edits, stats };
}
