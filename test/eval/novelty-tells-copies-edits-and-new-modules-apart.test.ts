// Novelty against the real library: a library module with only comments and whitespace changed is a copy; one with a
// renamed variable and changed constants is not a copy but too similar to be novel; a module of another design is
// novel; and an accepted environment counts against later ones.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { loadLibraryEnvs } from '../../actors/designer/library-envs.js';
import { codeTokens, DEFAULT_NOVELTY_THRESHOLD, NoveltyIndex, normalisedHash } from '../../eval/novelty.js';
import { libraryNoveltyIndex } from '../../eval/novelty-library.js';
import { repoPath } from '../../runtime/paths.js';

const library = libraryNoveltyIndex();
const higherLower = readFileSync(repoPath('envs', 'library', 'games', 'higher-lower.js'), 'utf8');

t.test('novelty tells copies, edits and new modules apart', async (t) => {
  t.test('comments and whitespace do not count; strings keep their slashes', async (t) => {
    t.same(codeTokens("const a = 'x // y'; // gone\n/* gone */ b=a"), ['const', 'a', '=', "'x // y'", ';', 'b', '=', 'a']);
    t.equal(normalisedHash('let x=1;'), normalisedHash('  let   x = 1 ; // one\n'));
    t.not(normalisedHash('let x=1;'), normalisedHash('let x=2;'));
  });

  t.test('a reformatted, re-commented library module is a copy', async (t) => {
    const copy = `/* my own environment */\n${higherLower.replace(/\n/g, '\n\n').replace(/ = /g, '   =   ').replace(/^\/\/.*$/m, '// a new comment')}`;
    const r = library.assess(copy);
    t.equal(r.libraryCopyOf, 'games/higher-lower');
    t.equal(r.maxLibrarySimilarity, 1);
    t.equal(r.novel, false);
  });

  t.test('renamed state and changed constants: not a copy, similar, not novel', async (t) => {
    const edit = higherLower.replace(/secret/g, 'hidden').replace(/1000/g, '2000');
    const r = library.assess(edit);
    t.equal(r.libraryCopyOf, null);
    t.equal(r.nearestLibrary, 'games/higher-lower');
    t.ok(r.maxLibrarySimilarity >= DEFAULT_NOVELTY_THRESHOLD && r.maxLibrarySimilarity < 1, `similarity ${r.maxLibrarySimilarity}`);
    t.equal(r.novel, false);
  });

  t.test('a module of another design is novel, against the library and against the library without itself', async (t) => {
    const fixture = readFileSync(repoPath('test', 'fixtures', 'eval-suite', 'reasoning', 'reverse-word.js'), 'utf8');
    const r = library.assess(fixture);
    t.equal(r.libraryCopyOf, null);
    t.ok(r.maxLibrarySimilarity < DEFAULT_NOVELTY_THRESHOLD, `similarity ${r.maxLibrarySimilarity}`);
    t.equal(r.novel, true);
    const others = loadLibraryEnvs().filter((e) => e.name !== 'higher-lower').map((e) => ({ name: e.name, code: e.code }));
    t.equal(new NoveltyIndex(others).assess(higherLower).novel, true, 'higher-lower is novel to the rest of the library');
  });

  t.test('accepted environments count: the second of two identical new modules is not novel', async (t) => {
    const index = libraryNoveltyIndex();
    const fixture = readFileSync(repoPath('test', 'fixtures', 'eval-suite', 'reasoning', 'reverse-word.js'), 'utf8');
    t.equal(index.accept('first', fixture).novel, true);
    const second = index.accept('second', `${fixture}\n// again`);
    t.equal(second.novel, false);
    t.equal(second.nearestAccepted, 'first');
    t.equal(second.maxAcceptedSimilarity, 1);
    t.equal(index.novelFraction, 0.5);
    t.equal(index.acceptedCount, 2);
  });
});
