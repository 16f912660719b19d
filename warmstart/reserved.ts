// Knob settings no warm-start child may take: the near held-out tier's (envs/heldout-near/README.md), written out here
// so the warm start never reads that suite. The tier then measures settings the warm start was kept off; the test
// test/warmstart/reserved-settings-are-the-near-tier-settings.test.ts checks this table against the suite.

/** Library parent → its near-tier settings (scalar knobs in source order, as `knobSetting` writes them). */
export const NEAR_TIER_SETTINGS: Readonly<Record<string, readonly string[]>> = {
  'door-code': ['CODES=7 TRIES=6 DIGITS=4', 'CODES=3 TRIES=3 DIGITS=3'],
  'max-pick': ['COUNT=7 LO=10 HI=99', 'COUNT=3 LO=100 HI=999'],
  'ticket-close': ['TICKETS=6 LIST_COST=0.5 TURNS=3 ID_DIGITS=3', 'TICKETS=3 LIST_COST=0.5 TURNS=3 ID_DIGITS=3'],
  'step-to-mark': ['LENGTH=24 SLACK=3', 'LENGTH=6 SLACK=2'],
  'window-search': ['TOP=100 GUESSES=7 WINDOW=20', 'TOP=80 GUESSES=6 WINDOW=12'],
};

const SCALAR_KNOB = /^const ([A-Z][A-Z_]*) = ([^;[][^;]*);$/;

/** A module's knob setting: its top-level scalar constants (word lists left out) in source order, `CODES=6 TRIES=4`. */
export function knobSetting(code: string): string {
  return code.split('\n').map((line) => SCALAR_KNOB.exec(line.trim())).filter((m) => m !== null).map((m) => `${m[1]}=${m[2]}`).join(' ');
}
