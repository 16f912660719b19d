// The structure figure of novelty: a library module whose word list and constants were rewritten (distinct new words,
// a changed count) shares few enough trigrams to be novel, yet with strings and numbers masked it is the same module,
// so it is not new structure; a module with other rules is both; the structure figure counts accepted ones too.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { structureTokens } from '../../eval/novelty.js';
import { libraryNoveltyIndex } from '../../eval/novelty-library.js';
import { repoPath } from '../../runtime/paths.js';

const caesar = readFileSync(repoPath('envs', 'library', 'reasoning', 'caesar-shift.js'), 'utf8');
const other = readFileSync(repoPath('test', 'fixtures', 'eval-suite', 'reasoning', 'reverse-word.js'), 'utf8');
const NEW_WORDS = ['harbour', 'ledger', 'tariff', 'cargo', 'vessel', 'customs', 'freight', 'manifest', 'broker', 'invoice', 'quay', 'tanker',
  'ferry', 'barge', 'dock', 'crane', 'pallet', 'anchorage', 'berth', 'charter', 'convoy', 'depot', 'embargo', 'fleet', 'galley', 'hull',
  'inlet', 'jetty', 'keel', 'lighthouse', 'mooring', 'navigator', 'outpost', 'pier', 'quarantine', 'rigging', 'schooner', 'tugboat',
  'underwriter', 'voyage', 'warehouse', 'yard', 'zone', 'bunker'];

t.test('new words and constants are novel but not new structure', async (t) => {
  t.same(structureTokens(['const', 'A', '=', "'x'", ';', 'f', '(', '12', ')']), ['const', 'A', '=', '""', ';', 'f', '(', '0', ')']);
  const list = /const WORDS = \[[^\]]*\];/.exec(caesar)![0];
  const child = caesar.replace(list, `const WORDS = [${NEW_WORDS.map((w) => `'${w}'`).join(', ')}];`).replace("name: 'caesar-shift'", "name: 'cargo-cipher'");
  const index = libraryNoveltyIndex();
  const r = index.accept('child', child);
  t.equal(r.novel, true, `trigram similarity ${r.maxLibrarySimilarity.toFixed(3)} is below the threshold`);
  t.equal(r.newStructure, false);
  t.equal(r.maxLibraryStructure, 1, 'masked, it is caesar-shift token for token');
  const o = index.accept('other', other);
  t.equal(o.newStructure, true, `structure similarity ${o.maxLibraryStructure.toFixed(3)}`);
  t.ok(o.maxAcceptedStructure < 0.8, 'nor like the accepted child');
  t.equal(index.novelFraction, 1);
  t.equal(index.newStructureFraction, 0.5);
});
