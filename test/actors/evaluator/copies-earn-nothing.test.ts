// A designed environment that copies a library module (byte for byte, or with comments and layout changed) or an
// environment accepted before earns copyReward (0) whatever its regret; the detector (eval/novelty.ts's measure)
// names what it copies, gives a redelivered environment the same verdict instead of matching it with itself, and
// passes a new module.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { CopyDetector } from '../../../actors/evaluator/copies.js';
import { scoreEpisodes } from '../../../actors/evaluator/score.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { libraryNoveltyIndex } from '../../../eval/index.js';
import { repoPath } from '../../../runtime/paths.js';
import { group } from './fixtures.js';

const read = (...p: string[]): string => readFileSync(repoPath(...p), 'utf8');

t.test('copies are found and earn nothing', async (t) => {
  const copies = new CopyDetector(() => libraryNoveltyIndex());
  const sum = read('envs', 'library', 'reasoning', 'sum-to-target.js');
  t.equal(await copies.copyOf({ envId: 'a', name: 'sum-to-target', code: sum }), 'reasoning/sum-to-target', 'byte for byte');
  const relaid = `// my own environment\n${sum.replace(/\n\s*\/\/[^\n]*/g, '').replace(/ {2}/g, '\t')}`;
  t.not(relaid, sum);
  t.equal(await copies.copyOf({ envId: 'b', name: 'sum-to-target', code: relaid }), 'reasoning/sum-to-target', 'comments and layout changed');

  const fresh = read('test', 'fixtures', 'hints', 'secret-digit-v2.js');
  t.equal(await copies.copyOf({ envId: 'c', name: 'secret-digit-v2', code: fresh }), null, 'a new module');
  t.equal(await copies.copyOf({ envId: 'c', name: 'secret-digit-v2', code: fresh }), null, 'redelivered: the same verdict, not a copy of itself');
  t.equal(await copies.copyOf({ envId: 'd', name: 'secret-digit-v2', code: fresh }), 'c', 'a copy of an earlier accepted one');

  const o = validateEvaluatorOptions();
  const episodes = group('e', [1, 1], [0, 0]).episodes;
  const s = scoreEpisodes(episodes, o, { oracleMean: 1, copyOf: 'reasoning/sum-to-target' });
  t.equal(s.regret, 1);
  t.equal(s.designerReward, 0);
  t.equal(s.rewardKind, 'copy');
  t.equal(scoreEpisodes(episodes, validateEvaluatorOptions({ copyReward: -0.5 }), { copyOf: 'c' }).designerReward, -0.5, 'copyReward is configurable');
  t.equal(scoreEpisodes(episodes, o, { oracleMean: 1, copyOf: null }).rewardKind, 'shaped', 'a new one is scored');
});
