// Probe agents of validation: a generic random agent (strong enough to win trivially winnable environments)
// and constant-action agents. Both are seeded, so validation itself is deterministic.
import { pick, randInt } from './prng.js';

/** Actions the constant-action probes try; each one is played every turn of every probe episode. */
export const CONSTANT_ACTIONS: readonly string[] = ['0', '1', '9', 'yes', 'a', 'up', 'submit', ''];

/** How many of the module's own repeated literals the constant probes add (see vocabularyActions). */
export const VOCABULARY_ACTIONS = 8;
const MAX_VOCABULARY_LITERAL = 24;

/**
 * The module's own short string literals that occur at least twice, most frequent first: constant actions an agent
 * that read the source would try. A word list whose entries repeat (a designer that rewrote `['garden', 'silver', …]`
 * as `['s', 's', …]`) then fails the probes stage, because saying that entry every turn wins; a list of distinct
 * words adds nothing. Comments are skipped; template literals with `${` are not constants and are left out.
 */
export function vocabularyActions(code: string, max = VOCABULARY_ACTIONS): string[] {
  const counts = new Map<string, number>();
  const n = code.length;
  let i = 0;
  while (i < n) {
    const c = code[i]!;
    if (c === '/' && code[i + 1] === '/') { while (i < n && code[i] !== '\n') i++; continue; }
    if (c === '/' && code[i + 1] === '*') { const end = code.indexOf('*/', i + 2); i = end < 0 ? n : end + 2; continue; }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < n && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
      const body = code.slice(i + 1, j).trim();
      if (body.length > 0 && body.length <= MAX_VOCABULARY_LITERAL && !body.includes('${') && !body.includes('\\')) {
        counts.set(body, (counts.get(body) ?? 0) + 1);
      }
      i = j + 1;
      continue;
    }
    i++;
  }
  return [...counts].filter(([w, k]) => k >= 2 && !CONSTANT_ACTIONS.includes(w)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, max).map(([w]) => w);
}

const COMMON = ['yes', 'no', 'true', 'false', 'left', 'right', 'up', 'down', 'a', 'b', 'c', 'd', 'north', 'south', 'east', 'west', 'done', 'submit', 'help'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const MAX_PROBE_ACTION = 200;

function words(random: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += LETTERS[randInt(random, LETTERS.length)];
  return s;
}

/** One random action shaped after the observation: its tokens, numbers, tool names and keys, or plain guesses. */
export function randomAction(observation: string, random: () => number): string {
  const tokens = observation.match(/[\p{L}\p{N}_.+-]+/gu) ?? [];
  const numbers = (observation.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  const tools = Array.from(observation.matchAll(/([A-Za-z_][\w.]*)\s*\(/g), (m) => m[1] as string);
  const keys = Array.from(observation.matchAll(/"?([A-Za-z_]\w*)"?\s*:/g), (m) => m[1] as string);
  const token = (): string => (tokens.length > 0 ? pick(random, tokens) : words(random, 1 + randInt(random, 5)));
  const number = (): number => {
    const r = random();
    if (numbers.length > 0 && r < 0.4) {
      const n = pick(random, numbers);
      return random() < 0.5 ? n : n + randInt(random, 5) - 2;
    }
    if (numbers.length > 1 && r < 0.55) return pick(random, numbers) + pick(random, numbers);
    return r < 0.8 ? randInt(random, 10) : randInt(random, 101);
  };
  let action: string;
  switch (randInt(random, 7)) {
    case 0:
      action = token();
      break;
    case 1:
      action = String(number());
      break;
    case 2:
      action = words(random, 1 + randInt(random, 5));
      break;
    case 3: {
      const name = tools.length > 0 && random() < 0.8 ? pick(random, tools) : token();
      const args: Record<string, string | number> = {};
      const nArgs = randInt(random, 3);
      for (let i = 0; i < nArgs; i++) {
        const key = keys.length > 0 && random() < 0.7 ? pick(random, keys) : token();
        args[key] = random() < 0.5 ? number() : token();
      }
      action = `${name}(${JSON.stringify(args)})`;
      break;
    }
    case 4:
      action = pick(random, COMMON);
      break;
    case 5:
      action = `${token()} ${token()}`;
      break;
    default:
      action = tokens.length > 0 && random() < 0.5 ? `${token()} ${number()}` : String(number());
  }
  return action.length > MAX_PROBE_ACTION ? action.slice(0, MAX_PROBE_ACTION) : action;
}

/** Adversarial actions the limits stage feeds in turn: empty, huge, odd characters, JSON, tool-call shapes. */
export function stressAction(turn: number, maxActionChars: number): string {
  const cases = [
    '',
    'x'.repeat(maxActionChars),
    '名前 🙂 \u0000 \u202e',
    '{"a":1,"b":[1,2,3]}',
    'call({"x":1e308,"y":null})',
    '-1e308',
    '__proto__',
    'constructor',
    ' \n\t ',
    'NaN',
  ];
  return cases[turn % cases.length] as string;
}
