// Labeled-batch announcements among the learner group's members: in iteration-aligned mode each member tells the
// others about every labeled batch it receives (core NATS, SUBJECTS.learnerBatches), so "all batches of the iteration
// are in" counts the whole group's.
import { headers as natsHeaders, type Subscription } from '@nats-io/nats-core';
import type { Connection } from '../../../runtime/connection.js';
import { SUBJECTS } from '../../../runtime/subjects.js';

const HOST = 'Spade-Host';

export class BatchAnnouncements {
  private readonly listeners = new Set<(iteration: number, batchId: string) => void>();
  private sub: Subscription | null = null;

  constructor(private readonly conn: Connection, private readonly hostId: string) {}

  /** Tells the other members about a labeled batch this one received (they count it toward its iteration). */
  announce(iteration: number, batchId: string): void {
    const h = natsHeaders();
    h.set(HOST, this.hostId);
    this.conn.nc.publish(SUBJECTS.learnerBatches, new TextEncoder().encode(JSON.stringify({ iteration, batchId })), { headers: h });
  }

  /** Calls `fn` for every labeled batch another member announces. */
  on(fn: (iteration: number, batchId: string) => void): () => void {
    this.sub ??= this.conn.nc.subscribe(SUBJECTS.learnerBatches, {
      callback: (err, m) => {
        if (err || m.headers?.get(HOST) === this.hostId) return;
        try {
          const b = JSON.parse(new TextDecoder().decode(m.data)) as { iteration: unknown; batchId: unknown };
          if (Number.isSafeInteger(b.iteration) && typeof b.batchId === 'string') for (const f of this.listeners) f(b.iteration as number, b.batchId);
        } catch {
          // not an announcement: ignored
        }
      },
    });
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  close(): void {
    this.sub?.unsubscribe();
  }
}
