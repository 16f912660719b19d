// How much work upstream of the learner can still turn into labeled batches: messages pending or unacked on the
// consumers of the pipeline (design jobs → rollout jobs → raw trajectories / rejected environments → evaluator).
// The learner gives up on a missing batch only when this is 0, so a slow one is never mistaken for a lost one.
import type { Connection } from '../../runtime/connection.js';
import { SUBJECTS, durableName } from '../../runtime/subjects.js';
import { consumerFor } from '../../runtime/topology-decls.js';

const PIPELINE = [
  consumerFor('designer', SUBJECTS.jobDesign),
  consumerFor('agent', SUBJECTS.jobRollout),
  consumerFor('evaluator', SUBJECTS.trajRaw),
  consumerFor('evaluator', SUBJECTS.envRejected),
];

/** A counter of pending + unacked pipeline messages over `conn` (a JetStream API call per consumer). */
export function pipelineWorkInFlight(conn: Connection): () => Promise<number> {
  return async () => {
    let n = 0;
    for (const decl of PIPELINE) {
      const info = await conn.jsm.consumers.info(decl.stream, durableName(decl.role));
      n += info.num_pending + info.num_ack_pending;
    }
    return n;
  };
}
