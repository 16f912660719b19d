// Hand-made loop messages for evaluator tests: samples with packed tokens, episodes with chosen returns.
import { packFloats, packInts } from '../../../actors/loop/packed.js';
import type { AcceptedEnv, Episode, Sample } from '../../../actors/loop/messages.js';

export function sample(tokens: number[], version = 0): Sample {
  return {
    promptTokens: packInts([1, 2, 3]), tokens: packInts(tokens), logprobs: packFloats(tokens.map(() => -1)),
    versions: packInts(tokens.map(() => version)), text: tokens.join(' '), finishReason: 'stop',
  };
}

export function episode(trajId: string, hinted: boolean, ret: number, extra: Partial<Episode> = {}): Episode {
  return { trajId, hinted, seed: 0, turns: [sample([5, 6])], rewards: [ret], return: ret, terminated: true, ...extra };
}

export function acceptedEnv(envId: string, withDesigner = true): AcceptedEnv {
  return {
    envId, jobId: `job-${envId}`, iteration: 3, code: 'export default class {}', codeHash: `h-${envId}`,
    spec: { name: 'sum-to-target', description: 'Reach the target.', hint: 'Add 9.', maxTurns: 8 },
    family: 'reasoning', doc: { id: 'doc-1' }, parents: ['p1'], designer: withDesigner ? sample([7, 8, 9]) : undefined,
    validation: { ms: 5 },
  };
}

/** k hinted and k unhinted episodes with the given returns. */
export function group(envId: string, hint: number[], noHint: number[]) {
  const episodes = [
    ...hint.map((r, i) => episode(`${envId}/h${i}`, true, r)),
    ...noHint.map((r, i) => episode(`${envId}/n${i}`, false, r)),
  ];
  return { groupId: `g-${envId}`, env: acceptedEnv(envId), episodes };
}
