// The keys of a KV bucket, from its stream's subject list: one stream-info request (the client pages a long list),
// which answers or fails with the request's typed timeout. `kv.keys()` instead walks an ordered push consumer and
// ends on a message with nothing pending after it, or on an idle heartbeat; in two loaded full-suite runs (load
// ~20) neither came, and `listMembers` waited until the test's 240 s timeout. A key whose latest entry is a delete
// or purge marker is listed too: the caller reads each key's entry anyway and skips those.
import type { JetStreamManager } from '@nats-io/jetstream';
import { NATS_SUBJECTS } from './subjects.js';

export async function bucketKeys(jsm: JetStreamManager, bucket: string): Promise<string[]> {
  const prefix = NATS_SUBJECTS.kvKey(bucket, '');
  const info = await jsm.streams.info(NATS_SUBJECTS.kvStream(bucket), { subjects_filter: NATS_SUBJECTS.kvKey(bucket, '>') });
  return Object.keys(info.state.subjects ?? {}).map((s) => s.slice(prefix.length)).sort();
}
