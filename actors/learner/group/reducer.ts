// The learner group behind the learner's GradientReducer (../reducer.ts): every learner host trains, no lock. A member
// starts from the group's published state when that is newer than its own checkpoint (join.ts), every update is a
// group round (trainer.ts, over the all-reduce in reduce.ts), and only the round's first member (in host order)
// uploads the version, with the optimizer state a joining member starts from (state.ts).
import type { Connection } from '../../../runtime/connection.js';
import { LearnerStateError } from '../errors.js';
import { loadLearnerModel, type LoadedLearnerModel } from '../learner-model.js';
import type { ResolvedLearnerOptions } from '../options.js';
import type { GradientReducer, PeerEvents, ReducedUpdate } from '../reducer.js';
import type { Role, Row } from '../rows.js';
import { joinGroup } from './join.js';
import { ABSENT, GroupReduce, type GroupReduceOptions } from './reduce.js';
import { publishGroupState } from './state.js';
import type { GroupTrainer } from './trainer.js';

export class GroupReducer implements GradientReducer {
  readonly lockstep = true;
  /** The trainer of the learner load() loaded. */
  private trainer: GroupTrainer | null = null;

  /** `group`: this host's membership, kept across restarts of its learner. */
  constructor(private readonly conn: Connection, readonly group: GroupReduce, private readonly log?: (line: string) => void) {}

  /** Joins the group's heartbeats as a member that takes part in no round until its learner loads. */
  static async start(conn: Connection, options: GroupReduceOptions): Promise<GroupReducer> {
    return new GroupReducer(conn, await GroupReduce.start(conn, options, ABSENT), options.log);
  }

  async takePart(launch: () => Promise<void>): Promise<void> {
    await launch();
  }

  async load(stateDir: string, o: ResolvedLearnerOptions, threads: number): Promise<LoadedLearnerModel> {
    if (o.cadence.publishEvery !== 1) throw new LearnerStateError(`a learner group publishes every round (a joining member starts from the published state): loop.learner.cadence.publishEvery must be 1, got ${o.cadence.publishEvery}`, { field: 'cadence.publishEvery' });
    // The others' next round waits for this member while it loads (the model, then the group's state).
    await this.group.joining();
    // The trainer goes where a lone learner's would (host.ownThread): the gradients come back from it between
    // backward and step, and the group's sum goes back to it.
    const m = await loadLearnerModel(stateDir, o, threads);
    this.trainer = await joinGroup(this.conn, this.group, m, this.log);
    return m;
  }

  async update(rows: readonly Row[], norm: Record<Role, number>, ids: string[]): Promise<ReducedUpdate> {
    const stats = await this.bound().update(rows, norm, ids);
    return { stats, groupIds: stats.group.ids };
  }

  async published(version: number): Promise<void> {
    const t = this.bound();
    await publishGroupState(this.conn, version, t.round, (await t.trainer.state()).optimizer);
  }

  announceBatch(iteration: number, batchId: string): void {
    this.group.announceBatch(iteration, batchId);
  }

  /** A round the others began (one this member may take part in): its logic joins it as soon as it can. */
  listen(on: PeerEvents): () => void {
    const offs = [this.group.onRound(() => {
      const round = this.openRound();
      if (round > 0) on.round(round);
    }), this.group.onBatch((iteration, batchId) => on.peerBatch(iteration, batchId))];
    return () => offs.forEach((off) => off());
  }

  /** Not a round it pushed to before a restart (joinsFrom): it may have been committed with that contribution. */
  openRound(): number {
    const newest = this.group.newestRound;
    return this.trainer !== null && newest >= this.group.joinsFrom ? newest : 0;
  }

  status(): Record<string, unknown> {
    return { newestRound: this.group.newestRound, ...this.group.membership, waiting: this.group.waiting };
  }

  leave(): Promise<void> {
    return this.group.leave();
  }

  close(): Promise<void> {
    return this.group.close();
  }

  private bound(): GroupTrainer {
    if (this.trainer === null) throw new LearnerStateError(`${this.group.options.hostId}: a group round before the learner loaded its model`, {});
    return this.trainer;
  }
}
