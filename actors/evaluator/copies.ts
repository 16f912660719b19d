// Which accepted environments are copies: of a library module (same code once comments and layout are dropped, or
// token-trigram similarity at or above the novelty threshold) or of an environment this evaluator accepted before.
// The measure is eval/novelty.ts's, loaded lazily (the one reference from the loop up to eval/), so the reward and
// `spade experiment`'s novelty figure judge copies by one definition.
import type { NoveltyIndex } from '../../eval/index.js';

/** Verdicts kept per envId, so a redelivered environment gets the same verdict instead of matching itself. */
const MAX_VERDICTS = 8192;

export interface CopyCandidate {
  envId: string;
  name: string;
  code: string;
}

export class CopyDetector {
  private index: Promise<NoveltyIndex> | null = null;
  private readonly verdicts = new Map<string, string | null>();

  /** The shipped library's index (envs/library, eval's default threshold), as the coordinator's novelty figure uses. */
  private open(): Promise<NoveltyIndex> {
    return (this.index ??= import('../../eval/novelty-library.js').then((m) => m.libraryNoveltyIndex()));
  }

  /** The name of what `env` copies (`family/name` for a library module, the earlier env's `envId` otherwise), or null. */
  async copyOf(env: CopyCandidate): Promise<string | null> {
    const known = this.verdicts.get(env.envId);
    if (known !== undefined) return known;
    const index = await this.open();
    const r = index.accept(env.envId, env.code);
    const t = index.threshold;
    const verdict = r.libraryCopyOf ?? (r.maxLibrarySimilarity >= t ? r.nearestLibrary : null) ?? (r.maxAcceptedSimilarity >= t ? r.nearestAccepted : null);
    if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.delete(this.verdicts.keys().next().value!);
    this.verdicts.set(env.envId, verdict);
    return verdict;
  }
}
