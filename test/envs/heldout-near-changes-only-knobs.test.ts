// The near held-out tier is what its README says: each module is a library small-family module whose first comment
// line names it, with other values of its module-level knob constants and another spec.name, and nothing else changed
// (comments aside). So its figures measure the agent on settings of a family it trained on, not on new code.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { repoPath } from '../../runtime/paths.js';
import { heldOutFiles, normaliseCode } from './heldout-suite.js';

const KNOB = /^const ([A-Z][A-Z_]*) = ([^;]+);$/;
/** Knob lines apart from the rest; the spec name taken out of the rest. */
function split(code: string, name: string): { knobs: Map<string, string>; rest: string } {
  const knobs = new Map<string, string>();
  const rest: string[] = [];
  for (const line of code.split('\n')) {
    const m = KNOB.exec(line.trim());
    if (m && !m[2]!.startsWith('[')) knobs.set(m[1]!, m[2]!);
    else rest.push(line);
  }
  return { knobs, rest: normaliseCode(rest.join('\n')).replace(`name: '${name}'`, "name: ''") };
}

for (const e of heldOutFiles('heldout-near')) {
  t.test(e.name, async (t) => {
    const src = /^\/\/ Near held-out tier: (envs\/library\/[a-z]+\/[a-z-]+\.js) /.exec(e.code)?.[1];
    t.ok(src, `${e.file}: the first line names its library module`);
    if (!src) return;
    const lib = readFileSync(repoPath(...src.split('/')), 'utf8');
    const libName = /name: '([^']+)'/.exec(lib)![1]!;
    t.not(e.name, libName, 'another spec.name than the library module');
    const near = split(e.code, e.name);
    const orig = split(lib, libName);
    t.equal(near.rest, orig.rest, 'the same code as the library module apart from knobs, name and comments');
    t.same([...near.knobs.keys()], [...orig.knobs.keys()], 'the same knobs');
    const changed = [...near.knobs].filter(([k, v]) => orig.knobs.get(k) !== v).map(([k]) => k);
    t.ok(changed.length > 0, `at least one knob differs (${changed.join(', ')})`);
  });
}
