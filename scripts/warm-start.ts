// Trains the base checkpoint from scratch (designer: parent → child edits for corpus documents; agent: oracle episodes)
// and writes it to model/checkpoints/base. Prints progress lines and ends with one JSON line of the figures.
// Usage: npm run warm-start [-- --plan-by steps|clock --steps 400 --minutes 28 --batch-tokens 2048 --max-module-tokens 900 --lr 2e-3 --seed 1 --out DIR
//        --layers 4 --width 256 --heads 8 --kv-heads 4 --context 2560 --agent-fraction 0.2 --documents auto|corpus|stand-in
//        --setting-modules door-code,ticket-close --settings-per-module 0 --setting-episodes 16 --setting-spread 4 --spaced-actions
//        --drills envs/drills/look-up.js --drill-episodes 1000]
import { parseArgs } from 'node:util';
import { warmStart, type WarmStartOptions } from '../warmstart/index.js';

const { values: a } = parseArgs({
  options: {
    steps: { type: 'string' }, minutes: { type: 'string' }, 'batch-tokens': { type: 'string' }, lr: { type: 'string' }, 'min-lr': { type: 'string' },
    'warmup-steps': { type: 'string' }, 'weight-decay': { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' },
    layers: { type: 'string' }, width: { type: 'string' }, heads: { type: 'string' }, 'kv-heads': { type: 'string' }, context: { type: 'string' },
    'agent-fraction': { type: 'string' }, 'max-memory': { type: 'string' }, 'episodes-per-env': { type: 'string' }, 'hint-env-episodes': { type: 'string' }, 'child-episodes': { type: 'string' },
    'setting-modules': { type: 'string' }, 'settings-per-module': { type: 'string' }, 'setting-episodes': { type: 'string' }, 'setting-spread': { type: 'string' },
    'spaced-actions': { type: 'boolean' }, drills: { type: 'string' }, 'drill-episodes': { type: 'string' },
    'edits-per-parent': { type: 'string' }, 'designer-output': { type: 'string' }, 'second-edits': { type: 'string' }, 'edit-validation-seeds': { type: 'string' },
    'agent-max-prompt-tokens': { type: 'string' }, documents: { type: 'string' }, init: { type: 'string' }, 'save-optimizer': { type: 'boolean' },
    'save-every': { type: 'string' }, 'max-module-tokens': { type: 'string' }, 'plan-by': { type: 'string' }, 'replan-every': { type: 'string' }, threads: { type: 'string' }, 'log-every': { type: 'string' },
  },
});
const num = (k: keyof typeof a): number | undefined => (a[k] === undefined ? undefined : Number(a[k]));
const options: WarmStartOptions = {
  model: Object.fromEntries(Object.entries({ layers: num('layers'), width: num('width'), heads: num('heads'), kvHeads: num('kv-heads'), contextLength: num('context') })
    .filter(([, v]) => v !== undefined)),
  steps: num('steps'), minutes: num('minutes'), batchTokens: num('batch-tokens'), lr: num('lr'), minLr: num('min-lr'), warmupSteps: num('warmup-steps'),
  weightDecay: num('weight-decay'), seed: num('seed'), agentFraction: num('agent-fraction'), maxMemory: num('max-memory'),
  episodesPerEnv: num('episodes-per-env'), hintEnvEpisodes: num('hint-env-episodes'), childEpisodes: num('child-episodes'), editsPerParent: num('edits-per-parent'),
  secondEdits: num('second-edits'), editValidationSeeds: num('edit-validation-seeds'), agentMaxPromptTokens: num('agent-max-prompt-tokens'), saveEvery: num('save-every'),
  settingsPerModule: num('settings-per-module'), settingEpisodes: num('setting-episodes'), settingSpread: num('setting-spread'), drillEpisodes: num('drill-episodes'),
  threads: num('threads'), logEvery: num('log-every'), maxModuleTokens: num('max-module-tokens'), replanEvery: num('replan-every'),
  ...(a['setting-modules'] !== undefined ? { settingModules: a['setting-modules'].split(',').filter((m) => m !== '') } : {}),
  ...(a['designer-output'] !== undefined ? { designerOutput: a['designer-output'] as 'module' | 'knobs' } : {}),
  ...(a['plan-by'] !== undefined ? { planBy: a['plan-by'] as 'steps' | 'clock' } : {}),
  ...(a.documents !== undefined ? { documents: a.documents as WarmStartOptions['documents'] } : {}),
  ...(a.out !== undefined ? { outDir: a.out } : {}),
  ...(a.init !== undefined ? { initCheckpoint: a.init } : {}),
  ...(a['save-optimizer'] ? { saveOptimizer: true } : {}),
  ...(a['spaced-actions'] ? { spacedActions: true } : {}),
  ...(a.drills !== undefined ? { drills: a.drills.split(',').filter((m) => m !== '') } : {}),
};
const s = await warmStart(options);
const last = (role: 'designer' | 'agent'): number | null => [...s.curve].reverse().find((p) => p[role] !== null)?.[role] ?? null;
console.log(`done: ${s.steps} steps in ${(s.seconds / 60).toFixed(1)} min (${s.dataSeconds.toFixed(0)} s data), ${s.tokensPerSec.toFixed(0)} tok/s; `
  + `final loss designer ${last('designer')?.toFixed(3)} agent ${last('agent')?.toFixed(3)}; checkpoint ${s.options.outDir}`);
console.log(JSON.stringify({
  script: 'warm-start', config: s.config, params: s.params, steps: s.steps, stoppedByClock: s.stoppedByClock, minutes: +(s.seconds / 60).toFixed(2),
  dataSeconds: +s.dataSeconds.toFixed(1), tokens: s.tokens, tokensPerSec: +s.tokensPerSec.toFixed(1), paddedTokensPerSec: +s.paddedTokensPerSec.toFixed(1),
  designerLoss: last('designer'), agentLoss: last('agent'), documents: s.documents, library: s.library, designerEnvs: s.designerEnvs, edits: s.edits, episodes: s.episodes, childEpisodes: s.childEpisodes, settings: s.settings, droppedRows: s.droppedRows,
  curve: s.curve, seed: s.options.seed, outDir: s.options.outDir,
}));
