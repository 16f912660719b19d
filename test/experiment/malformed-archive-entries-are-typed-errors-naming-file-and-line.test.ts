// Everything wrong in a run archive the frontier figures read is an ArchiveError naming the file and the line (null
// for a whole file): a line that is not JSON or not an object, a field of the wrong type, an accepted environment
// without its code file, an iteration line without an index, a missing metrics.jsonl.
import t from 'tap';
import { join } from 'node:path';
import { isArchiveError, readFrontierUnits, type ArchiveError } from '../../experiment/index.js';
import { writeRunArchive, type RunArchiveFixture } from '../helpers/run-archive.js';

const good = { envId: 'e1', iteration: 1, feasible: true, regret: 0.5, returnNoHint: 0.5 };
const EVALUATED = join('envs', 'evaluated.jsonl');

const cases: { name: string; fixture: RunArchiveFixture; file: string; line: number | null; message: RegExp }[] = [
  { name: 'a line that is not JSON', fixture: { raw: { [EVALUATED]: `${JSON.stringify(good)}\n{"envId": \n` } }, file: EVALUATED, line: 2, message: /evaluated\.jsonl line 2 is not JSON/ },
  { name: 'a line that is not an object', fixture: { raw: { [join('envs', 'accepted.jsonl')]: '[1, 2]\n' } }, file: join('envs', 'accepted.jsonl'), line: 1, message: /line 1 is not a JSON object/ },
  { name: 'an iteration that is not an integer', fixture: { evaluated: [good, { ...good, iteration: 'x' }] }, file: EVALUATED, line: 2, message: /line 2: iteration must be a non-negative integer \(got "x"\)/ },
  { name: 'feasible not a boolean', fixture: { evaluated: [{ ...good, feasible: 'yes' }] }, file: EVALUATED, line: 1, message: /line 1: feasible must be true or false/ },
  { name: 'a return that is not a number', fixture: { evaluated: [good, good, { ...good, returnNoHint: 'NaN' }] }, file: EVALUATED, line: 3, message: /line 3: returnNoHint must be a finite number/ },
  { name: 'parents not a list', fixture: { accepted: [{ envId: 'a1', iteration: 1, parents: 'library:nim' }], code: { a1: '' } }, file: join('envs', 'accepted.jsonl'), line: 1, message: /parents must be a list/ },
  { name: 'an envId that is a path', fixture: { accepted: [{ envId: '../x', iteration: 1, parents: [] }] }, file: join('envs', 'accepted.jsonl'), line: 1, message: /envId must be an environment id/ },
  { name: 'an accepted environment without its code', fixture: { accepted: [{ envId: 'a1', iteration: 1, parents: [] }] }, file: join('envs', 'a1.js'), line: null, message: /accepted\.jsonl line 1: accepted environment a1 has no code file/ },
  { name: 'an iteration line without an index', fixture: { metrics: [{ event: 'iteration', iteration: { index: 1 } }, { event: 'iteration', iteration: { meanDesignerReward: 1 } }] }, file: 'metrics.jsonl', line: 2, message: /metrics\.jsonl line 2: an iteration line needs iteration\.index/ },
  { name: 'no metrics.jsonl', fixture: { metrics: null }, file: 'metrics.jsonl', line: null, message: /no metrics\.jsonl/ },
];

t.test('malformed archive entries are typed errors naming the file and the line', async (t) => {
  for (const c of cases) {
    const dir = writeRunArchive(t, c.fixture);
    let err: unknown;
    try {
      readFrontierUnits(dir);
    } catch (e) {
      err = e;
    }
    t.ok(isArchiveError(err), `${c.name}: an ArchiveError`);
    const a = err as ArchiveError;
    t.same([a.file, a.line, a.runDir], [join(dir, c.file), c.line, dir], `${c.name}: names ${c.file}${c.line ? ` line ${c.line}` : ''}`);
    t.match(a.message, c.message, `${c.name}: says what is wrong`);
    t.equal(a.code, 'EXPERIMENT_ARCHIVE');
  }
});
