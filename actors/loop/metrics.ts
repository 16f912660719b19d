// Per-job metric outputs of the designer and agent (spade.metrics.<role>), published with the job's results so a
// retried job repeats the same msgIds and the stream keeps one copy.
import type { ActorOutput } from '../../runtime/actor.js';
import { Metric } from '../../runtime/message-types.js';
import { SUBJECTS } from '../../runtime/subjects.js';

export function metricOutputs(role: string, host: string, key: string, values: Record<string, number>, tags: Record<string, string>): ActorOutput[] {
  const ts = Date.now();
  return Object.entries(values).filter(([, v]) => Number.isFinite(v)).map(([name, value]) => ({
    subject: SUBJECTS.metrics(role), type: Metric, msgId: `metric:${role}:${key}:${name}`,
    body: { role, host, ts, name, value, tags },
  }));
}
