// The warm start's table of reserved knob settings (warmstart/reserved.ts, written out so the warm start never reads
// envs/heldout-near) is exactly the near tier's settings, read from the suite the way the near tests read them.
import t from 'tap';
import { NEAR_TIER_SETTINGS } from '../../warmstart/index.js';
import { nearSettings } from '../envs/heldout-suite.js';

t.test('the reserved settings are the near tier settings', async (t) => {
  const near = nearSettings();
  const fromSuite: Record<string, string[]> = {};
  for (const n of near) (fromSuite[n.parent] ??= []).push(n.setting);
  const sorted = (r: Readonly<Record<string, readonly string[]>>): [string, string[]][] => Object.entries(r).map(([k, v]) => [k, [...v].sort()] as [string, string[]]).sort();
  t.same(sorted(NEAR_TIER_SETTINGS), sorted(fromSuite), 'one entry per near module, keyed by its library parent');
});
