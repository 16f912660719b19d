// The learner probe: synchronous on-policy RL apart from the bus, its settings curriculum and its gain figure.
export * from './errors.js';
export { settingKey, rootSetting, childSetting, type Setting, type ChildOptions } from './settings.js';
export { SettingsBuffer, validateBufferOptions, variance, DEFAULT_BUFFER_OPTIONS, type BufferEntry, type BufferOptions } from './settings-buffer.js';
export { probeGain, type Gain, type GainEstimate, type ModuleGain } from './gain.js';
export { validateProbeOptions, DEFAULT_PROBE_OPTIONS, type ProbeOptions } from './options.js';
export { runProbe, type ProbeLine, type ProbeResult } from './run-probe.js';
