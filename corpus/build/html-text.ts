// HTML to plain text for the corpus build: drops scripts, navigation and chosen boilerplate blocks, keeps <pre>
// verbatim, turns blocks into line breaks and marks headings so pages can be split into sections.

/** Headings come out as a line `HEADING_MARK + level + " " + title`, for splitSections(). */
export const HEADING_MARK = '\u0001';

export interface HtmlTextOptions {
  /** Elements whose class or id matches are dropped with everything inside (navigation, tables of contents...). */
  skipClass?: RegExp;
  /** Only text inside the first element with this tag is kept (e.g. "main"). */
  onlyInside?: string;
}

const DROP_TAGS = new Set(['script', 'style', 'head', 'nav', 'noscript', 'svg', 'button', 'form', 'select', 'map', 'object', 'iframe']);
const VOID_TAGS = new Set(['br', 'hr', 'img', 'meta', 'link', 'input', 'col', 'area', 'base', 'wbr', 'source']);
const PARA_TAGS = new Set(['p', 'div', 'section', 'article', 'table', 'ul', 'ol', 'dl', 'blockquote', 'pre', 'figure', 'header', 'footer', 'main', 'aside', 'hr']);
const LINE_TAGS = new Set(['br', 'li', 'tr', 'dt', 'dd', 'caption', 'figcaption']);
const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[^>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+|<)/g;

export function htmlToText(html: string, opts: HtmlTextOptions = {}): string {
  const out: string[] = [];
  let skipTag: string | undefined;
  let skipDepth = 0;
  let pre = 0;
  let inside = opts.onlyInside === undefined;
  let heading = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(html); m; m = TOKEN.exec(html)) {
    const [, close, rawTag, attrs, text] = m;
    if (rawTag === undefined) {
      if (text !== undefined && skipTag === undefined && inside) {
        const t = decodeEntities(text);
        if (pre > 0) out.push(t);
        else {
          // Source indentation between tags is not content: no space at the start of an output line.
          const collapsed = t.replace(/\s+/g, ' ');
          const last = out[out.length - 1];
          out.push(last === undefined || /\s$/.test(last) ? collapsed.trimStart() : collapsed);
        }
      }
      continue;
    }
    const tag = rawTag.toLowerCase();
    const selfClosing = VOID_TAGS.has(tag) || /\/\s*$/.test(attrs ?? '');
    if (skipTag !== undefined) {
      if (tag === skipTag && !selfClosing) skipDepth += close ? -1 : 1;
      if (skipDepth === 0) skipTag = undefined;
      continue;
    }
    if (!close && !selfClosing && (DROP_TAGS.has(tag) || (opts.skipClass && skipClassMatches(attrs ?? '', opts.skipClass)))) {
      skipTag = tag;
      skipDepth = 1;
      continue;
    }
    if (opts.onlyInside !== undefined && tag === opts.onlyInside) {
      inside = !close;
      continue;
    }
    if (!inside) continue;
    if (tag === 'pre') pre += close ? -1 : 1;
    const h = /^h([1-6])$/.exec(tag);
    if (h) {
      if (!close) {
        heading = Number(h[1]);
        out.push(`\n\n${HEADING_MARK}${heading} `);
      } else {
        heading = 0;
        out.push('\n\n');
      }
    } else if (heading > 0) {
      continue; // markup inside a heading stays on its line
    } else if (PARA_TAGS.has(tag)) out.push('\n\n');
    else if (LINE_TAGS.has(tag)) out.push(!close && tag === 'li' ? '\n- ' : '\n');
    else if ((tag === 'td' || tag === 'th') && !/\s$/.test(out[out.length - 1] ?? '\n')) out.push(' ');
  }
  return tidy(out.join(''))
    .replace(/(^|\n)- *\n+(?=\S)/g, '$1- ') // <li><p>text</p></li>
    .replace(/(?<=(?:^|\n)- [^\n]*)\n\n(?=- )/g, '\n'); // no blank line between one-line list items
}

function skipClassMatches(attrs: string, re: RegExp): boolean {
  const m = /\b(?:class|id)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi;
  for (let a = m.exec(attrs); a; a = m.exec(attrs)) if (re.test(a[1]!.replace(/^["']|["']$/g, ''))) return true;
  return false;
}

/** Trailing spaces off, at most one blank line, no blank lines at either end (indentation is kept: code needs it). */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\s*\n|\s+$/g, '');
}

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', rsquo: '’',
  lsquo: '‘', ldquo: '“', rdquo: '”', copy: '©', reg: '®', trade: '™', times: '×', larr: '←', rarr: '→', harr: '↔',
  uarr: '↑', darr: '↓', bull: '•', middot: '·', para: '¶', sect: '§', deg: '°', plusmn: '±', laquo: '«', raquo: '»',
  shy: '', zwj: '', zwnj: '', le: '≤', ge: '≥', ne: '≠', minus: '−', divide: '÷', micro: 'µ', euro: '€', pound: '£',
  lArr: '⇐', rArr: '⇒', hArr: '⇔', dagger: '†', Dagger: '‡', prime: '′', Prime: '″', infin: '∞', sum: '∑', isin: '∈',
  forall: '∀', exist: '∃', and: '∧', or: '∨', not: '¬', cap: '∩', cup: '∪', sub: '⊂', sup: '⊃', asymp: '≈', equiv: '≡',
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', lambda: 'λ', mu: 'μ', pi: 'π', sigma: 'σ', tau: 'τ',
  phi: 'φ', omega: 'ω', thinsp: ' ', ensp: ' ', emsp: ' ', lowast: '∗', sdot: '⋅', oplus: '⊕', otimes: '⊗',
  eacute: 'é', egrave: 'è', aacute: 'á', agrave: 'à', ouml: 'ö', uuml: 'ü', auml: 'ä', ccedil: 'ç', szlig: 'ß',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);/g, (all, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[e] ?? all;
  });
}
