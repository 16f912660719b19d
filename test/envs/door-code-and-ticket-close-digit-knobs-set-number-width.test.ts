// door-code's DIGITS and ticket-close's ID_DIGITS are knobs: the width of the numbers the agent must copy, so a
// designer (or the probe's curriculum) can grade the copy from one digit up. At the shipped values the numbers are
// the 4-digit codes and 3-digit ids the modules always drew. Real sandbox, real validation.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { repoPath } from '../../runtime/paths.js';
import { SandboxPool } from '../../sandbox/index.js';
import { withKnobs } from '../../actors/designer/index.js';

const door = readFileSync(repoPath('envs', 'library', 'reasoning', 'door-code.js'), 'utf8');
const ticket = readFileSync(repoPath('envs', 'library', 'tools', 'ticket-close.js'), 'utf8');

t.test('the digit knobs set the width of the numbers shown', async (t) => {
  const sandbox = new SandboxPool({ workers: 1 });
  t.teardown(() => sandbox.close());
  const widths = async (code: string, seed: number, numbers: (obs: string, hint: string) => string[]): Promise<number[]> => {
    const v = await sandbox.validate(code, { seeds: 8 });
    t.ok(v.ok, `validates (${v.failed ?? 'ok'})`);
    const r = await sandbox.reset({ code, codeHash: v.codeHash, seed, episodeId: `w${seed}-${v.codeHash.slice(0, 8)}` });
    return numbers(r.observation, String(r.hint)).map((n) => n.length);
  };
  const codes = (obs: string): string[] => [...obs.matchAll(/[a-z]+ (\d+)/g)].map((m) => m[1]!);
  const id = (_: string, hint: string): string[] => [/id (\d+)/.exec(hint)![1]!];
  for (const seed of [1, 2, 3]) {
    t.same(await widths(door, seed, codes), [4, 4, 4, 4], 'shipped door-code: four 4-digit codes');
    t.same(await widths(withKnobs(door, { DIGITS: 1 }), seed, codes), [1, 1, 1, 1], 'DIGITS = 1: one-digit codes');
    t.same(await widths(withKnobs(door, { DIGITS: 6, CODES: 2 }), seed, codes), [6, 6], 'DIGITS = 6, CODES = 2');
    t.same(await widths(ticket, seed, id), [3], 'shipped ticket-close: a 3-digit id');
    t.same(await widths(withKnobs(ticket, { ID_DIGITS: 2 }), seed, id), [2], 'ID_DIGITS = 2: a 2-digit id');
  }
});
