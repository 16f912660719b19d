// Pure logic: the topology derives from subjects.ts so that every named JetStream subject is stored by exactly one
// stream (two would store it twice; none would lose it), and every consumer filters a subject its stream stores.
import t from 'tap';
import { subjectCovers } from '../../runtime/subject-match.js';
import { SUBJECTS, SUBJECT_WILDCARDS } from '../../runtime/subjects.js';
import { CONSUMER_DECLS, STREAM_DECLS } from '../../runtime/topology-decls.js';

/**
 * Subjects served over core NATS request/reply, pushed over core NATS (the weights' live push, the learner group's
 * batch announcements: a lost one costs a download or a wait, never data), or only by `npm run bench:runtime`'s own streams.
 */
const NOT_IN_THE_TOPOLOGY = [
  SUBJECTS.sandboxValidate, SUBJECTS.sandboxStep, SUBJECTS.sandboxStepOnHost('some-role'), SUBJECTS.weightsLive, SUBJECTS.learnerBatches, SUBJECTS.benchRawJob, SUBJECTS.benchRawResult,
];

const named = Object.values(SUBJECTS).map((v) => (typeof v === 'function' ? v('some-role') : v));

t.test('each named subject has one stream; consumers filter what their stream stores', async (t) => {
  for (const subject of named.filter((s) => !NOT_IN_THE_TOPOLOGY.includes(s))) {
    const streams = STREAM_DECLS.filter((d) => d.subjects.some((p) => subjectCovers(p, subject))).map((d) => d.name);
    t.equal(streams.length, 1, `${subject} is stored by ${streams.join(', ') || 'no stream'}`);
  }
  for (const subject of NOT_IN_THE_TOPOLOGY)
    t.notOk(STREAM_DECLS.some((d) => d.subjects.some((p) => subjectCovers(p, subject))), `${subject} stays out of the streams`);
  const eventSubjects = STREAM_DECLS.filter((d) => d.kind === 'events').flatMap((d) => d.subjects);
  const { all, ...families } = SUBJECT_WILDCARDS;
  t.same([...eventSubjects].sort(), Object.values(families).sort(), 'each event stream stores one SUBJECT_WILDCARDS family');
  t.ok(named.every((s) => subjectCovers(all, s)), `${all} covers every subject`);
  for (const c of CONSUMER_DECLS) {
    const stream = STREAM_DECLS.find((d) => d.name === c.stream);
    t.ok(stream?.subjects.some((p) => subjectCovers(p, c.filter)), `${c.role} filters ${c.filter} on ${c.stream}, which stores it`);
  }
});
