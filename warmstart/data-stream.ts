// The deterministic stream of training batches: designer rows cycle through the designer's examples in a fresh
// shuffled order each pass, agent rows cycle through the oracle episodes (each shown hinted when the oracle played it
// with the hint); a batch holds rows of one role, as many as fit in batchTokens once padded.
import { makeRandom } from '../sandbox/index.js';
import type { PromptSource } from '../model/index.js';
import { agentExamples, designerEditExample, sampleMemory, type Example, type Role } from './examples.js';
import type { DesignerEdit } from './edits.js';
import type { LibraryEnv } from './library.js';
import type { OracleEpisode } from './oracle-episodes.js';
import { WarmStartError } from './errors.js';

export interface DataStreamOptions {
  seed: number;
  batchTokens: number;
  contextLength: number;
  maxMemory: number;
  agentMaxPromptTokens: number;
  agentFraction: number;
  /** The designer rows' format: a whole child module, or the knob lines it changes (loop.designer.output). Default module. */
  designerOutput?: 'module' | 'knobs';
}

export class WarmStartData {
  private readonly random: () => number;
  private designerOrder: DesignerEdit[] = [];
  private agentOrder: OracleEpisode[] = [];
  private readonly queued: Record<Role, Example[]> = { designer: [], agent: [] };
  private readonly byName: Map<string, LibraryEnv>;
  /** Rows dropped because they exceed the context. */
  dropped = 0;

  /**
   * `library` names memory lines and agent envs; `edits` are the parent → child examples the designer learns;
   * `agentEnvs` are further envs episodes may come from (the validated children), never shown as memory lines.
   */
  constructor(private readonly tok: PromptSource, private readonly library: readonly LibraryEnv[], private readonly edits: readonly DesignerEdit[],
    private readonly episodes: readonly OracleEpisode[], private readonly o: DataStreamOptions, agentEnvs: readonly LibraryEnv[] = []) {
    this.random = makeRandom(o.seed);
    this.byName = new Map([...library, ...agentEnvs].map((e) => [e.name, e]));
  }

  /** Step s trains the agent when the running share of agent steps falls behind agentFraction. */
  roleOf(step: number): Role {
    if (this.episodes.length === 0) return 'designer';
    if (this.edits.length === 0) return 'agent';
    return Math.floor((step + 1) * this.o.agentFraction) > Math.floor(step * this.o.agentFraction) ? 'agent' : 'designer';
  }

  nextBatch(step: number): { role: Role; rows: Example[] } {
    const role = this.roleOf(step);
    const rows: Example[] = [];
    for (;;) {
      const next = this.peek(role);
      const longest = Math.max(next.tokens.length, ...rows.map((r) => r.tokens.length));
      if (rows.length > 0 && longest * (rows.length + 1) > this.o.batchTokens) break;
      rows.push(this.queued[role].shift()!);
    }
    return { role, rows };
  }

  private peek(role: Role): Example {
    // A whole pass over the role's data with every row too long would loop for ever: say so instead.
    const sources = role === 'designer' ? this.edits.length : this.episodes.length;
    for (let tried = 0; this.queued[role].length === 0; tried++) {
      if (tried > sources) {
        throw new WarmStartError(`every ${role} row is longer than the model's context (${this.o.contextLength} tokens): raise options.model.contextLength `
          + '(a Hugging Face model: its max_position_embeddings) or shorten the rows (options.maxModuleTokens, options.agentMaxPromptTokens)', 'WARM_START_CONTEXT', { role, contextLength: this.o.contextLength });
      }
      for (const ex of role === 'designer' ? [this.nextDesigner()] : this.nextAgent()) {
        if (ex.tokens.length > this.o.contextLength) this.dropped++;
        else this.queued[role].push(ex);
      }
    }
    return this.queued[role][0]!;
  }

  private nextDesigner(): Example {
    if (this.designerOrder.length === 0) this.designerOrder = this.shuffled(this.edits);
    const edit = this.designerOrder.pop()!;
    return designerEditExample(this.tok, edit, sampleMemory(this.library, edit.root, this.o.maxMemory, this.random), this.o.designerOutput);
  }

  private nextAgent(): Example[] {
    if (this.agentOrder.length === 0) this.agentOrder = this.shuffled(this.episodes);
    const ep = this.agentOrder.pop()!;
    return agentExamples(this.tok, this.byName.get(ep.env)!, ep, ep.hinted, this.o.agentMaxPromptTokens);
  }

  private shuffled<T>(xs: readonly T[]): T[] {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
  }
}
