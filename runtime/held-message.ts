// A work-queue message whose ack an actor deferred past its handler (HandlerContext.hold()): the host keeps it
// alive with in-progress acks until the actor acks, releases or abandons it, and nak's what is still held on drain.
import type { JsMsg } from '@nats-io/jetstream';
import type { HeldMessage } from './actor.js';

export type Settled = 'acked' | 'released' | 'abandoned' | 'drained';

export class Held implements HeldMessage {
  /** handling: the handler still runs; held: after it returned; settled: acked, released, abandoned or drained. */
  state: 'handling' | 'held' | 'settled' = 'handling';
  private lastWorking = Date.now();

  constructor(readonly msg: JsMsg, private readonly onSettle: (h: Held, how: Settled) => void) {}

  get streamSeq(): number {
    return this.msg.info.streamSequence;
  }

  private settle(how: Settled): boolean {
    if (this.state === 'settled') return false;
    this.state = 'settled';
    this.onSettle(this, how);
    return true;
  }

  async ack(): Promise<void> {
    // Confirmed, so that whoever acks after a checkpoint can count on the server having it.
    if (this.settle('acked')) await this.msg.ackAck().catch(() => false);
  }

  release(): void {
    if (this.settle('released')) this.msg.nak();
  }

  abandon(): void {
    this.settle('abandoned');
  }

  /** The host drains: what the actor still holds goes back to the queue now. */
  drain(): void {
    if (this.settle('drained')) this.msg.nak();
  }

  /** An in-progress ack when the last one is `every` ms old. */
  keepAlive(now: number, every: number): void {
    if (this.state === 'settled' || now - this.lastWorking < every) return;
    this.msg.working();
    this.lastWorking = now;
  }
}
