// Public entry of what every loop role shares: messages and their packed arrays, the loop options, prompt formats,
// the per-process policy and sandbox leases, metrics, errors, the message catalog, the environment memory and the
// policy service. Outside actors/ this is how the loop is entered; the roles inside actors/ import its modules directly.
export * from './messages.js';
export * from './packed.js';
export * from './options.js';
export * from './prompts.js';
export * from './errors.js';
export * from './metrics.js';
export * from './leases.js';
export * from './sandbox.js';
export * from './catalog.js';
export * from './memory/index.js';
export * from './policy/index.js';
