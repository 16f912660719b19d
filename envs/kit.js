// The `kit`: a small standard library every environment module may use as the global `kit`.
// Plain script (no imports, no host APIs), evaluated in each QuickJS context after the seeded Math.random is installed.
// Every helper is pure or draws only from Math.random at call time, so environments stay deterministic per seed.
(function () {
  'use strict';

  // ---- seeded randomness (all built on Math.random, which the sandbox seeds at every reset) ----

  /** Integer in [lo, hi], both inclusive. */
  function randInt(lo, hi) {
    return lo + Math.floor(Math.random() * (hi - lo + 1));
  }
  /** One element of a non-empty array. */
  function pick(arr) {
    return arr[Math.floor(Math.random() * arr.length)];
  }
  /** A shuffled copy (Fisher-Yates); the input is left untouched. */
  function shuffle(arr) {
    const a = arr.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      const t = a[i]; a[i] = a[j]; a[j] = t;
    }
    return a;
  }
  /** n distinct elements in random order (fewer if the array is shorter). */
  function sample(arr, n) {
    return shuffle(arr).slice(0, n);
  }
  /** true with probability p. */
  function chance(p) {
    return Math.random() < p;
  }
  /** [0, 1, ..., n-1], or [lo, ..., hi-1] with two arguments. */
  function range(lo, hi) {
    if (hi === undefined) { hi = lo; lo = 0; }
    const out = [];
    for (let i = lo; i < hi; i++) out.push(i);
    return out;
  }

  // ---- parsing actions ----

  /** Lower-case, trim, collapse runs of whitespace to one space. */
  function norm(text) {
    return String(text).toLowerCase().replace(/\s+/g, ' ').trim();
  }
  /** Lower-case words made of letters, digits, apostrophes or hyphens. */
  function words(text) {
    return String(text).toLowerCase().match(/[a-z0-9][a-z0-9'-]*/g) || [];
  }
  /** All numbers in the text (integers or decimals, with sign), in order. */
  function parseNumbers(text) {
    return (String(text).match(/-?\d+(?:\.\d+)?/g) || []).map(Number);
  }
  /** The first number in the text, or null. */
  function parseNumber(text) {
    const all = parseNumbers(text);
    return all.length ? all[0] : null;
  }
  // Index just past the ")" that closes the "(" at `open`, skipping parentheses inside strings; -1 if unbalanced.
  function closeParen(s, open) {
    let depth = 0, quote = null;
    for (let i = open; i < s.length; i++) {
      const c = s[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return i + 1;
    }
    return -1;
  }
  function parseArgs(inner) {
    const s = inner.trim();
    if (s === '') return {};
    try { return JSON.parse(s); } catch (e) { /* not JSON: fall through */ }
    if (s.length >= 2 && s[0] === "'" && s[s.length - 1] === "'") return s.slice(1, -1);
    return s;
  }
  const IDENT = /[A-Za-z0-9_.]/, IDENT_START = /[A-Za-z_]/;
  /**
   * All tool calls `name(args)` in the text, in order, as [{ name, args }]. args is the parsed JSON when the text
   * inside the parentheses is JSON (`{"path":"/"}`, `"/"`, `3`), {} when empty, else the raw trimmed text.
   */
  function parseCalls(text) {
    const s = String(text), out = [];
    // Scan for "(" and walk back over the name: linear time, unlike a backtracking regex on long junk input.
    for (let open = s.indexOf('('); open >= 0; open = s.indexOf('(', open + 1)) {
      let start = open;
      while (start > 0 && IDENT.test(s[start - 1])) start--;
      while (start < open && !IDENT_START.test(s[start])) start++;
      if (start === open) continue;
      const end = closeParen(s, open);
      if (end < 0) break;
      out.push({ name: s.slice(start, open), args: parseArgs(s.slice(open + 1, end - 1)) });
      open = end - 1;
    }
    return out;
  }
  /** The first tool call in the text (surrounding prose, backticks and whitespace are ignored), or null. */
  function parseCall(text) {
    const calls = parseCalls(text);
    return calls.length ? calls[0] : null;
  }

  // ---- formatting observations ----

  /** Join the non-empty parts with newlines; arrays are flattened, null/undefined/false/"" are skipped. */
  function lines() {
    const out = [];
    (function add(xs) {
      for (const x of xs) {
        if (Array.isArray(x)) add(x);
        else if (x !== null && x !== undefined && x !== false && x !== '') out.push(String(x));
      }
    })(Array.prototype.slice.call(arguments));
    return out.join('\n');
  }
  /** Rows (arrays of cells or strings) as text, cells separated by `sep` (default one space). */
  function grid(rows, sep) {
    const s = sep === undefined ? ' ' : sep;
    return rows.map((r) => (Array.isArray(r) ? r.join(s) : String(r))).join('\n');
  }
  /** A plain-text table with a header row and left-aligned columns separated by " | ". */
  function table(headers, rows) {
    const all = [headers].concat(rows).map((r) => r.map(String));
    const w = headers.map((_, i) => Math.max.apply(null, all.map((r) => (r[i] || '').length)));
    const fmt = (r) => r.map((c, i) => (c || '').padEnd(w[i])).join(' | ').trimEnd();
    return [fmt(all[0]), w.map((n) => '-'.repeat(n)).join('-|-')].concat(all.slice(1).map(fmt)).join('\n');
  }
  /** Items as a numbered list ("1. a"), or bulleted ("- a") when numbered is false. */
  function list(items, numbered) {
    return items.map((x, i) => (numbered === false ? '- ' : i + 1 + '. ') + x).join('\n');
  }

  // ---- rewards ----

  /** Clamp to [0, 1]. */
  function clamp01(x) {
    return x < 0 ? 0 : x > 1 ? 1 : x;
  }

  globalThis.kit = Object.freeze({
    randInt, pick, shuffle, sample, chance, range,
    norm, words, parseNumbers, parseNumber, parseCalls, parseCall,
    lines, grid, table, list,
    clamp01,
  });
})();
