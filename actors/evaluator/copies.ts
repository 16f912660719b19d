// Which accepted environments are copies: of a library module (same code once comments and layout are dropped, or
// token-trigram similarity at or above the novelty threshold) or of an environment this evaluator accepted before.
// The measure is eval/novelty.ts's NoveltyIndex, which the composition root (app/roles.ts) hands in, opened on first
// use: so the reward and `spade experiment`'s novelty figure judge copies by one definition, and actors/ does not
// import eval/.

/** What the detector asks of a novelty index (eval/novelty.ts NoveltyIndex has it). */
export interface CopyIndex {
  readonly threshold: number;
  /** Scores `code` against the library and what was accepted before, then counts it as accepted. */
  accept(envId: string, code: string): {
    libraryCopyOf: string | null; maxLibrarySimilarity: number; nearestLibrary: string | null; maxAcceptedSimilarity: number; nearestAccepted: string | null;
  };
}

/** Verdicts kept per envId, so a redelivered environment gets the same verdict instead of matching itself. */
const MAX_VERDICTS = 8192;

export interface CopyCandidate {
  envId: string;
  name: string;
  code: string;
}

export class CopyDetector {
  private index: Promise<CopyIndex> | null = null;
  private readonly verdicts = new Map<string, string | null>();

  /** `openIndex`: the library's index, opened once on the first environment (the composition root passes eval's). */
  constructor(private readonly openIndex: () => CopyIndex | Promise<CopyIndex>) {}

  private open(): Promise<CopyIndex> {
    return (this.index ??= Promise.resolve().then(this.openIndex).catch((err: unknown) => ((this.index = null), Promise.reject(err))));
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
