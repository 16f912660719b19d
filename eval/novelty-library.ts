// The novelty index a loop starts from: the shipped library (envs/library, or another <dir>/<family>/<name>.js tree).
import { loadLibraryEnvs } from '../actors/designer/index.js';
import { DEFAULT_NOVELTY_THRESHOLD, NoveltyIndex } from './novelty.js';

export function libraryNoveltyIndex(root?: string, threshold = DEFAULT_NOVELTY_THRESHOLD): NoveltyIndex {
  return new NoveltyIndex(loadLibraryEnvs(root).map((e) => ({ name: `${e.family}/${e.name}`, code: e.code })), threshold);
}
