// A wording edit: a few words of a module's prose (its string and template literals, never identifiers, comments or
// regular expressions) replaced by synonyms, the same replacement at every occurrence so that the environment, its
// oracle and its hint keep agreeing. The agent then has to read the new words (its actions may change: "halt" for
// "stop"). Pure and seeded; the sandbox decides whether the child still validates.

/** Word → synonyms a child may use instead (lower case; a capitalised word gets a capitalised synonym). */
export const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  number: ['value', 'figure'], numbers: ['values', 'figures'], guess: ['pick', 'call'], guesses: ['picks', 'calls'],
  door: ['gate', 'vault', 'hatch'], code: ['key', 'pin'], codes: ['keys', 'pins'], colour: ['shade', 'tag'], colours: ['shades', 'tags'],
  tries: ['attempts', 'goes'], try: ['attempt', 'go'], largest: ['biggest', 'highest'], stop: ['halt', 'stay'],
  mark: ['flag', 'spot', 'marker'], cell: ['square', 'tile'], warmer: ['closer', 'hotter'], colder: ['farther', 'cooler'],
  higher: ['bigger', 'up'], lower: ['smaller', 'down'], ticket: ['case', 'issue', 'request'], tickets: ['cases', 'issues', 'requests'],
  owner: ['holder', 'assignee'], message: ['note', 'memo'], word: ['term', 'name'], letters: ['characters', 'symbols'],
  letter: ['character', 'symbol'], wrong: ['incorrect', 'off'], shown: ['listed', 'given'], find: ['locate', 'discover'],
  hidden: ['secret', 'unseen'], win: ['succeed'], lose: ['fail'], answer: ['reply', 'respond'], type: ['enter', 'send'],
  say: ['reply', 'tell'], line: ['track', 'path'], shift: ['rotation', 'offset'], original: ['plain', 'source'],
  encrypted: ['encoded', 'scrambled'], opens: ['unlocks'], exit: ['way out', 'door'], maze: ['labyrinth', 'warren'],
  secret: ['hidden', 'mystery'], pattern: ['shape', 'outline'],
};

/** A span of prose inside the code: the text of a string literal or of a template literal between its `${}`s. */
interface Span { start: number; end: number }

/**
 * The prose spans of `code` in source order, skipping comments and regular-expression literals (a heuristic lexer,
 * not a parser: a brace inside a string within `${}` can end the expression early; validation catches what breaks).
 */
export function proseSpans(code: string): Span[] {
  const out: Span[] = [];
  const n = code.length;
  let i = 0;
  const regexCanStart = (at: number): boolean => {
    let j = at - 1;
    while (j >= 0 && /\s/.test(code[j]!)) j--;
    return j < 0 || '(,=:[!&|?{};'.includes(code[j]!);
  };
  while (i < n) {
    const c = code[i]!;
    if (c === '/' && code[i + 1] === '/') { while (i < n && code[i] !== '\n') i++; continue; }
    if (c === '/' && code[i + 1] === '*') { const e = code.indexOf('*/', i + 2); i = e < 0 ? n : e + 2; continue; }
    if (c === '/' && regexCanStart(i)) {
      let j = i + 1, cls = false;
      while (j < n && code[j] !== '\n' && (cls || code[j] !== '/')) {
        if (code[j] === '\\') j++;
        else if (code[j] === '[') cls = true;
        else if (code[j] === ']') cls = false;
        j++;
      }
      i = j + 1;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && code[j] !== c && code[j] !== '\n') j += code[j] === '\\' ? 2 : 1;
      out.push({ start: i + 1, end: j });
      i = j + 1;
      continue;
    }
    if (c === '`') {
      let j = i + 1, from = j;
      while (j < n && code[j] !== '`') {
        if (code[j] === '\\') { j += 2; continue; }
        if (code[j] === '$' && code[j + 1] === '{') {
          out.push({ start: from, end: j });
          let depth = 1;
          const open = j + 2;
          j = open;
          while (j < n && depth > 0) { if (code[j] === '{') depth++; else if (code[j] === '}') depth--; j++; }
          // The expression's own strings are prose too (`${won ? 'You win' : 'You lose'}`).
          for (const s of proseSpans(code.slice(open, j - 1))) out.push({ start: open + s.start, end: open + s.end });
          from = j;
          continue;
        }
        j++;
      }
      out.push({ start: from, end: j });
      i = j + 1;
      continue;
    }
    i++;
  }
  return out.filter((s) => s.end > s.start);
}

const capital = (w: string): string => w[0]!.toUpperCase() + w.slice(1);

/**
 * Rewords up to `most` of the words the table knows that occur in the module's prose. Returns the new code and the
 * replacements made (`stop→halt`), or null when no known word occurs.
 */
export function reword(code: string, random: () => number, most = 4, table = SYNONYMS): { code: string; edits: string[] } | null {
  const spans = proseSpans(code);
  const prose = spans.map((s) => code.slice(s.start, s.end)).join('\n');
  const present = Object.keys(table).filter((w) => table[w]!.length > 0 && new RegExp(`\\b${w}\\b`, 'i').test(prose));
  if (present.length === 0) return null;
  for (let i = present.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [present[i], present[j]] = [present[j]!, present[i]!];
  }
  const chosen = new Map(present.slice(0, 1 + Math.floor(random() * most)).map((w) => [w, table[w]![Math.floor(random() * table[w]!.length)]!]));
  const pattern = new RegExp(`\\b(${[...chosen.keys()].join('|')})\\b`, 'gi');
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += code.slice(at, s.start);
    out += code.slice(s.start, s.end).replace(pattern, (m) => {
      const to = chosen.get(m.toLowerCase())!;
      return m[0] === m[0]!.toUpperCase() ? capital(to) : to;
    });
    at = s.end;
  }
  out += code.slice(at);
  return { code: out, edits: [...chosen].map(([a, b]) => `${a}→${b}`) };
}
