// Shared by the objective tests: the two objective kinds at ε = 0.2, C = 2, and a tolerance for hand-computed values.
import type { ObjectiveOptions } from '../../../actors/learner/objective.js';

export const beh: ObjectiveOptions = { kind: 'behaviour', clipEps: 0.2, tisCap: 2 };
export const dec: ObjectiveOptions = { kind: 'decoupled', clipEps: 0.2, tisCap: 2 };
export const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;
