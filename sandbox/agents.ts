// Probe agents of validation: a generic random agent (strong enough to win trivially winnable environments)
// and constant-action agents. Both are seeded, so validation itself is deterministic.
import { pick, randInt } from './prng.js';

/** Actions the constant-action probes try; each one is played every turn of every probe episode. */
export const CONSTANT_ACTIONS: readonly string[] = ['0', '1', '9', 'yes', 'a', 'up', 'submit', ''];

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
