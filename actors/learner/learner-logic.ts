// The learner's logic, with no I/O and no clock: transition(state, event) → (state, effects), as XState v5 splits
// an actor. Events are what happened (a labeled batch was received and is held unacked, a timer fired, an update,
// publish or checkpoint finished, the host drains); effects are what to do next (ack or release held messages,
// write drops and updates to the accounting log, train, publish weights, checkpoint, wait). The driver (learner.ts)
// performs the effects in order and feeds their results back as events. A message is acked only once every
// trajectory in it is final: applied in a checkpointed update, or dropped with the drop on disk.
import { ackFinal, drop, receive } from './learner-admission.js';
import type { LearnerEffect, LearnerEvent, LearnerLogicOptions, LearnerLogicState } from './learner-state.js';
import { selectMinibatch, type Buffered } from './minibatch.js';
import type { UpdateStats } from './policy-trainer.js';

export * from './learner-state.js';

/**
 * The next state and the effects to perform, in order (an ack always comes after the drop that made it final).
 * The state is updated in place and returned (the accounting sets grow with the run, so it is not copied).
 */
export function transition<R>(s: LearnerLogicState<R>, e: LearnerEvent<R>, o: LearnerLogicOptions): { state: LearnerLogicState<R>; effects: LearnerEffect<R>[] } {
  const out: LearnerEffect<R>[] = [];
  if (s.phase !== 'stopped' && s.phase !== 'crashed') step(s, e, o, out);
  return { state: s, effects: out };
}

/**
 * One event, then, in a group, a round the others are in: joined after every event, not only on `round` (that signal
 * comes once, and a member busy then, publishing, checkpointing or still starting, would otherwise sit the round out,
 * be dropped from it after the timeout, and find its own next round refused as one the group already committed).
 */
function step<R>(s: LearnerLogicState<R>, e: LearnerEvent<R>, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  handle(s, e, o, out);
  if (o.group) joinRound(s, e.now, o, out);
}

function handle<R>(s: LearnerLogicState<R>, e: LearnerEvent<R>, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  switch (e.type) {
    case 'received':
      receive(s, e.ref, e.streamSeq, e.batch, o, out);
      s.lastArrival = e.now;
      if (s.phase === 'idle' && !s.stopping) schedule(s, e.now, o, out);
      return;
    case 'tick':
      if (s.phase === 'idle' && !s.stopping) schedule(s, e.now, o, out);
      return;
    case 'workInFlight':
      if (s.phase !== 'counting') return;
      s.phase = 'idle';
      if (s.stopping) return continueStop(s, e.now, o, out);
      if (e.count > 0) {
        s.lastArrival = e.now; // quiet, but the rest can still come: wait another period
        out.push({ type: 'wake', ms: o.flushAfterMs });
      } else if (e.now - s.lastArrival < o.flushAfterMs) schedule(s, e.now, o, out);
      else flush(s, e.now, o, out);
      return;
    case 'trained':
      if (s.phase === 'training') trained(s, e.stats, e.now, o, out, e.groupIds, e.members);
      return;
    case 'round':
      s.groupRound = Math.max(s.groupRound, e.round); // joined in step()
      return;
    case 'peerBatch':
      if (e.iteration > s.trainedThrough) s.iterationBatches.set(e.iteration, (s.iterationBatches.get(e.iteration) ?? new Set<string>()).add(e.batchId));
      if (s.phase === 'idle' && !s.stopping) schedule(s, e.now, o, out);
      return;
    case 'published':
      published(s, e.version);
      if (s.phase === 'publishing') afterPublish(s, e.now, o, out);
      else if (s.phase === 'aligning') align(s, null, e.now, o, out);
      return;
    case 'start':
      // Only at start: once this process published a version, its own updates move it.
      if (s.phase !== 'idle' || s.started || s.stats.published.length > 0) return;
      s.started = true;
      return align(s, alignTo(e.published, s.stats.version, o), e.now, o, out);
    case 'publishTaken':
      // A group member aligning behind a version another member published first: that version is the group's, and
      // this member keeps its own (the group's next round brings it along). Anywhere else a taken version is a failure:
      // a lone learner holds the learner lock, and only a round's first member publishes.
      if (s.phase === 'aligning' && o.group) return align(s, null, e.now, o, out);
      return handle(s, { type: 'failed', error: e.error, now: e.now }, o, out);
    case 'checkpointed':
      if (s.phase !== 'checkpointing') return;
      for (const id of s.unsaved) s.final.add(id);
      s.unsaved.clear();
      s.checkpointedAt = s.stats.updates;
      ackFinal(s, out);
      if (s.update) finishUpdate(s, e.now, o, out);
      else finishStop(s, out);
      return;
    case 'stop':
      s.stopping = true;
      if (s.phase === 'idle') continueStop(s, e.now, o, out);
      return;
    case 'failed':
      s.stats.error = e.error.message;
      // A failure to align fails the start, which reports it: there was no update.
      if (s.phase === 'aligning') return crash(s, out, e.error);
      out.push({ type: 'log', line: `learner: update failed, stopping without checkpoint (restart the learner to resume): ${e.error.stack ?? String(e.error)}` });
      return crash(s, out, e.error);
    case 'crash':
      return crash(s, out);
  }
}

/**
 * The others are in a round this member has not applied: it joins with what it holds, up to a minibatch (maybe
 * nothing), so the group stays in lockstep. A member counting work in flight before flushing joins too (the count,
 * when it comes, is ignored): otherwise the round goes on without it after the timeout, and its next round is refused
 * as one the group already committed. What it holds past a minibatch (batches that came while it counted) waits for
 * the next round, as its own rounds would leave it: no round is larger than the minibatch options say. In a group
 * every update is a round, so `updates` is the rounds this member applied.
 */
function joinRound<R>(s: LearnerLogicState<R>, now: number, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  if (!s.started || s.stopping || s.groupRound <= s.stats.updates || (s.phase !== 'idle' && s.phase !== 'counting')) return;
  s.phase = 'idle';
  const sel = selectMinibatch(s.buffer, batchesOf(s), o.flushAfterMs, o); // as a flush: short of a minibatch is taken
  if ('take' in sel) take(s, sel.take, now, o, out);
  else startUpdate(s, [], now, o, out);
}

/** Stragglers of an iteration already trained (after a flush) count as complete: they never wait again. */
const batchesOf = <R>(s: LearnerLogicState<R>) => (i: number): number => (i <= s.trainedThrough ? Infinity : s.iterationBatches.get(i)?.size ?? 0);

/** The next minibatch, or how long to wait; a flush of an incomplete buffer first asks for the work in flight. */
function schedule<R>(s: LearnerLogicState<R>, now: number, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  const quiet = now - s.lastArrival;
  const ready = selectMinibatch(s.buffer, batchesOf(s), Math.min(quiet, o.flushAfterMs - 1), o);
  if ('take' in ready) return take(s, ready.take, now, o, out);
  if (quiet < o.flushAfterMs || s.buffer.length === 0) return void out.push({ type: 'wake', ms: ready.waitMs });
  if (!o.countsWorkInFlight) return flush(s, now, o, out);
  s.phase = 'counting';
  out.push({ type: 'countWorkInFlight' });
}

function flush<R>(s: LearnerLogicState<R>, now: number, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  const quiet = now - s.lastArrival;
  const sel = selectMinibatch(s.buffer, batchesOf(s), quiet, o);
  if (!('take' in sel)) return void out.push({ type: 'wake', ms: sel.waitMs });
  const its = [...new Set(sel.take.map((b) => b.iteration))];
  out.push({ type: 'log', line: `learner: flushing ${sel.take.length} trajectories (iteration ${its.join(', ')}, ${its.map(batchesOf(s)).join(', ')} of ${o.iterationBatches || '-'} batches) after ${(quiet / 1000).toFixed(1)} s quiet with no work in flight` });
  take(s, sel.take, now, o, out);
}

/** Iterations at or before the one taken are done with (late duplicates of them only need acks). */
function take<R>(s: LearnerLogicState<R>, items: Buffered[], now: number, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  const last = Math.max(...items.map((b) => b.iteration));
  s.trainedThrough = Math.max(s.trainedThrough, last);
  for (const i of s.iterationBatches.keys()) if (i <= last) s.iterationBatches.delete(i);
  startUpdate(s, items, now, o, out);
}

function startUpdate<R>(s: LearnerLogicState<R>, items: Buffered[], now: number, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  // Admission again at update time: the version may have moved since these arrived.
  const version = s.stats.version;
  const keep = items.filter((b) => version - b.minVersion <= o.eta);
  const stale = items.filter((b) => version - b.minVersion > o.eta);
  if (keep.length === 0 && !o.group) {
    drop(s, 'stale', stale.map((b) => b.trajId), out);
    for (const b of items) s.inBuffer.delete(b.trajId);
    return s.stopping ? continueStop(s, now, o, out) : schedule(s, now, o, out);
  }
  // A zero advantage gives a zero gradient: skip its compute. Its tokens still count in its role's token mean
  // (norm), so the loss is the same with or without the skip: a mean over every trajectory of the minibatch. The
  // update still counts and publishes, so the version advances once per minibatch whatever the data.
  const signal = o.skipZeroAdvantage ? keep.filter((b) => b.advantage !== 0) : keep;
  const norm = { designer: 0, agent: 0 };
  for (const b of keep) norm[b.role] += b.tokens;
  s.stats.skipped += keep.length - signal.length;
  s.phase = 'training';
  s.update = { items, keep, stale, version };
  out.push({ type: 'train', rows: signal.flatMap((b) => b.rows), norm, ids: keep.map((b) => b.trajId) });
}

function trained<R>(s: LearnerLogicState<R>, u: UpdateStats, now: number, o: LearnerLogicOptions, out: LearnerEffect<R>[], groupIds?: string[], members?: string[]): void {
  const { items, keep, stale, version } = s.update!;
  const st = s.stats;
  const lags = keep.map((b) => Math.max(0, version - b.minVersion));
  st.updates++;
  st.applied += keep.length;
  st.trainedTokens += u.tokens;
  st.computeMs += u.computeMs;
  st.stalenessMax = Math.max(st.stalenessMax, 0, ...lags);
  const histogram = [...st.stalenessHistogram];
  for (const lag of lags) histogram[lag] = (histogram[lag] ?? 0) + 1;
  for (let i = 0; i < histogram.length; i++) histogram[i] ??= 0; // dense, so it survives JSON (a checkpoint) as it is
  st.stalenessHistogram = histogram;
  // In a group the round's ids are the whole group's: each member's log lists them all, so a trajectory applied by a
  // member that died before acking it is recognised (and acked) when it is redelivered to another.
  const applied = groupIds ?? keep.map((b) => b.trajId);
  for (const id of applied) s.unsaved.add(id);
  out.push({ type: 'applied', update: st.updates, version, ids: applied });
  drop(s, 'stale', stale.map((b) => b.trajId), out);
  for (const b of items) s.inBuffer.delete(b.trajId);
  s.update!.report = { ...u, update: st.updates, version, trajectories: keep.length, stalenessMean: lags.length ? lags.reduce((a, b) => a + b, 0) / lags.length : 0, stalenessMax: Math.max(0, ...lags) };
  if (st.updates % o.publishEvery !== 0) return afterPublish(s, now, o, out);
  if (uploads(members, o)) {
    s.phase = 'publishing';
    out.push({ type: 'publish', version: st.version + 1 });
    return;
  }
  // Another member of the round uploads this version: this one moves to it without publishing.
  published(s, st.version + 1);
  afterPublish(s, now, o, out);
}

/**
 * Who publishes a version: a lone learner (no round members) always; of a group round, only its first member in host
 * order, so the group publishes one sequence of versions, each uploaded once.
 */
function uploads(members: string[] | undefined, o: LearnerLogicOptions): boolean {
  return members === undefined || members[0] === o.hostId;
}

/**
 * The version a learner starts at, when it must publish one: past the published version when that is ahead of its
 * weights' (versions only go up, so a lone learner whose checkpoint a crash rolled back goes past it; a group member
 * keeps its own, the group's next round brings it along), or its own when the published one is behind it (a crash
 * lost the uploads past it). Null: it starts at its own version without publishing.
 */
function alignTo(published: number, own: number, o: LearnerLogicOptions): number | null {
  if (published < own) return own;
  if (published > own && !o.group) return published + 1;
  return null;
}

/** Publishes `to` first (phase aligning) when there is one, else the learner is started; a stop waiting for it goes on. */
function align<R>(s: LearnerLogicState<R>, to: number | null, now: number, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  if (to !== null) {
    s.phase = 'aligning';
    return void out.push({ type: 'publish', version: to });
  }
  s.phase = 'idle';
  out.push({ type: 'started' });
  if (s.stopping) continueStop(s, now, o, out);
}

function published<R>(s: LearnerLogicState<R>, version: number): void {
  s.stats.version = version;
  s.stats.published = [...s.stats.published, version];
}

function afterPublish<R>(s: LearnerLogicState<R>, now: number, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  if (s.stats.updates % o.checkpointEvery === 0) checkpoint(s, out);
  else finishUpdate(s, now, o, out);
}

/** Weights, optimizer and learner state; the acks for everything it makes final follow `checkpointed`. */
function checkpoint<R>(s: LearnerLogicState<R>, out: LearnerEffect<R>[]): void {
  // Messages this checkpoint covers are acked right after it: record the highest of their stream sequences.
  for (const p of s.pending) if (p.ids.every((id) => s.final.has(id) || s.unsaved.has(id))) s.stats.lastStreamSeq = Math.max(s.stats.lastStreamSeq, p.streamSeq);
  const { version, updates, applied, dropped, lastStreamSeq, skipped, trainedTokens, stalenessMax, stalenessHistogram } = s.stats;
  s.phase = 'checkpointing';
  out.push({ type: 'checkpoint', state: { version, updates, applied, dropped, lastStreamSeq, skipped, trainedTokens, stalenessMax, stalenessHistogram: [...stalenessHistogram] } });
}

function finishUpdate<R>(s: LearnerLogicState<R>, now: number, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  const report = s.update!.report!;
  s.update = null;
  s.phase = 'idle';
  s.stats.last = report;
  out.push({ type: 'metrics', stats: { ...s.stats }, report }, { type: 'updated', report });
  if (s.stopping) continueStop(s, now, o, out);
  else schedule(s, now, o, out);
}

function continueStop<R>(s: LearnerLogicState<R>, now: number, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  // A bounded run ends right after its last iteration is labeled: train what is buffered rather than leave it.
  if (o.trainOnStop && s.buffer.length > 0 && !s.finalTrained) {
    s.finalTrained = true;
    return startUpdate(s, s.buffer.splice(0), now, o, out);
  }
  if (s.stats.updates > s.checkpointedAt) return checkpoint(s, out);
  finishStop(s, out);
}

function finishStop<R>(s: LearnerLogicState<R>, out: LearnerEffect<R>[]): void {
  for (const p of s.pending) out.push({ type: 'release', ref: p.ref });
  s.pending = [];
  s.phase = 'stopped';
  out.push({ type: 'stopped' });
}

/** Stops at once, writes nothing more, acks nothing: held messages come back after ack_wait, as after a crash. */
function crash<R>(s: LearnerLogicState<R>, out: LearnerEffect<R>[], error?: Error): void {
  for (const p of s.pending) out.push({ type: 'abandon', ref: p.ref });
  s.pending = [];
  s.phase = 'crashed';
  out.push(error ? { type: 'crashed', error } : { type: 'crashed' });
}
