// The shipped base checkpoint, prompted as the loop's designer (a corpus document, memory lines and an editable
// library parent), edits the parent into modules that pass the whole sandbox validation and are neither the parent
// nor a library module (a small seeded sample; docs/warm-start.md has the N=40 figures).
import t from 'tap';
import { existsSync } from 'node:fs';
import { evaluateDesigner } from '../../warmstart/index.js';
import { repoPath } from '../../runtime/paths.js';

const dir = repoPath('model', 'checkpoints', 'base');

t.test('designer samples at temperature 0.5 include a valid edit of their parent', { skip: !existsSync(dir) && 'no shipped checkpoint yet' }, async (t) => {
  const r = await evaluateDesigner({ checkpoint: dir, samples: 8, temperature: 0.5, maxBatch: 8, documents: 'auto', seed: 3 });
  const edits = r.samples.filter((s) => s.stage === 'ok' && !s.parentCopy && !s.libraryCopy);
  t.ok(edits.length >= 1, `${edits.length} of 8 samples are valid new modules (${r.samples.map((s) => `${s.parent}→${s.name ?? s.stage}`).join(', ')})`);
  for (const s of edits) t.not(s.name, s.parent, `${s.name}: renamed from its parent`);
});
