// bench:schema's baselines: the hot-path message schemas (LabeledBatch, TrajectoryGroup, DesignJob; actors/messages.ts)
// written again with TypeBox (compiled checker and Value.Check) and zod, with the same bounds. Loaded at run time
// from bench/node_modules (`npm --prefix bench install`), never by the product's build.
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { z } from 'zod';

function typebox() {
  const id = Type.String({ minLength: 1, maxLength: 200 });
  const int0 = Type.Integer({ minimum: 0 });
  const sample = Type.Object({
    promptTokens: Type.Uint8Array(), tokens: Type.Uint8Array(), logprobs: Type.Uint8Array(), versions: Type.Uint8Array(),
    text: Type.String(), finishReason: Type.String(),
  });
  const spec = Type.Object({ name: Type.String(), description: Type.String(), hint: Type.String(), maxTurns: Type.Integer({ minimum: 1, maximum: 64 }) });
  const doc = Type.Object({ id: Type.String(), source: Type.Optional(Type.String()), kind: Type.Optional(Type.String()) });
  const num = Type.Number();
  const env = Type.Object({
    envId: id, jobId: id, iteration: int0, code: Type.String({ minLength: 1 }), codeHash: Type.String({ minLength: 1 }), spec,
    family: Type.String(), doc: Type.Optional(doc), parents: Type.Array(Type.String()), designer: Type.Optional(sample),
    validation: Type.Object({ oracleMean: Type.Optional(num), randomMean: Type.Optional(num), constantMean: Type.Optional(num), ms: Type.Number({ minimum: 0 }) }),
  });
  const episode = Type.Object({
    trajId: id, hinted: Type.Boolean(), seed: int0, turns: Type.Array(sample), rewards: Type.Array(num), return: num, terminated: Type.Boolean(),
    error: Type.Optional(Type.String()),
  });
  const labeled = Type.Object({ trajId: id, role: Type.Union([Type.Literal('designer'), Type.Literal('agent')]), samples: Type.Array(sample), advantage: num, reward: num });
  return {
    labeled: Type.Object({
      batchId: id, envId: id, iteration: int0, accepted: Type.Boolean(), regret: Type.Optional(num), returnHint: Type.Optional(num),
      returnNoHint: Type.Optional(num), feasible: Type.Optional(Type.Boolean()), designerReward: num, trajectories: Type.Array(labeled),
    }),
    group: Type.Object({ groupId: id, env, episodes: Type.Array(episode, { minItems: 1 }) }),
    job: Type.Object({ jobId: id, iteration: int0, seed: int0, minPolicyVersion: Type.Optional(int0) }),
  };
}

function zod() {
  const id = z.string().min(1).max(200);
  const int0 = z.number().int().min(0);
  const bytes = z.instanceof(Uint8Array);
  const sample = z.object({ promptTokens: bytes, tokens: bytes, logprobs: bytes, versions: bytes, text: z.string(), finishReason: z.string() });
  const spec = z.object({ name: z.string(), description: z.string(), hint: z.string(), maxTurns: z.number().int().min(1).max(64) });
  const doc = z.object({ id: z.string(), source: z.string().optional(), kind: z.string().optional() });
  const num = z.number();
  const env = z.object({
    envId: id, jobId: id, iteration: int0, code: z.string().min(1), codeHash: z.string().min(1), spec, family: z.string(), doc: doc.optional(),
    parents: z.array(z.string()), designer: sample.optional(),
    validation: z.object({ oracleMean: num.optional(), randomMean: num.optional(), constantMean: num.optional(), ms: z.number().min(0) }),
  });
  const episode = z.object({
    trajId: id, hinted: z.boolean(), seed: int0, turns: z.array(sample), rewards: z.array(num), return: num, terminated: z.boolean(), error: z.string().optional(),
  });
  const labeled = z.object({ trajId: id, role: z.enum(['designer', 'agent']), samples: z.array(sample), advantage: num, reward: num });
  return {
    labeled: z.object({
      batchId: id, envId: id, iteration: int0, accepted: z.boolean(), regret: num.optional(), returnHint: num.optional(), returnNoHint: num.optional(),
      feasible: z.boolean().optional(), designerReward: num, trajectories: z.array(labeled),
    }),
    group: z.object({ groupId: id, env, episodes: z.array(episode).min(1) }),
    job: z.object({ jobId: id, iteration: int0, seed: int0, minPolicyVersion: int0.optional() }),
  };
}

/** name → message kind → (value) => boolean, plus the library versions. */
export async function loadSchemaBaselines() {
  const tb = typebox();
  const zs = zod();
  const map = (o, f) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
  const { readFileSync } = await import('node:fs');
  const version = (name) => JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
  return {
    versions: { typebox: version('@sinclair/typebox'), zod: version('zod') },
    checkers: {
      'typebox-compiled': map(tb, (t) => { const c = TypeCompiler.Compile(t); return (v) => c.Check(v); }),
      'typebox-value': map(tb, (t) => (v) => Value.Check(t, v)),
      zod: map(zs, (t) => (v) => t.safeParse(v).success),
    },
    /** JSON Schema of the LabeledBatch body, as TypeBox emits it (Uint8Array is a TypeBox extension, not JSON Schema). */
    jsonSchemaOfLabeled: JSON.stringify(tb.labeled),
  };
}
