// Writes the check suite of this folder's README to the directory given (default /tmp/copy-check): the five library
// modules as shipped, door-code at DIGITS 1, 2 and 3, ticket-close at ID_DIGITS 1 and 2 (renamed by a suffix).
// Usage, after a build: node docs/experiments/2026-12-05-copy-tests/make-check-suite.mjs [DIR]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { withKnobs } from '../../../dist/actors/designer/knobs.js';

const dir = process.argv[2] ?? '/tmp/copy-check';
mkdirSync(dir, { recursive: true });
const lib = (p) => readFileSync(new URL(`../../../envs/library/${p}.js`, import.meta.url), 'utf8');
const rename = (code, from, to) => code.replace(`name: '${from}'`, `name: '${to}'`);
const out = (name, code) => writeFileSync(`${dir}/${name}.js`, code);
for (const m of ['reasoning/door-code', 'tools/ticket-close', 'reasoning/max-pick', 'games/step-to-mark', 'games/window-search']) out(m.split('/')[1], lib(m));
for (const d of [1, 2, 3]) out(`door-code-d${d}`, rename(withKnobs(lib('reasoning/door-code'), { DIGITS: d }), 'door-code', `door-code-d${d}`));
for (const d of [1, 2]) out(`ticket-close-i${d}`, rename(withKnobs(lib('tools/ticket-close'), { ID_DIGITS: d }), 'ticket-close', `ticket-close-i${d}`));
