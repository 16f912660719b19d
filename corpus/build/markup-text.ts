// Light strippers for the plain-text markups in the sources: reStructuredText (Python docs) and AsciiDoc (git
// docs). They keep prose and code, drop directives and link syntax, and mark section titles for splitSections().
import { HEADING_MARK } from './html-text.js';

const RST_UNDERLINE = /^([=\-~^"'`#*+<>:.])\1{2,}\s*$/;

/**
 * reStructuredText → text with heading marks; levels follow the order underline styles first appear. Literal
 * blocks (after `::` or a code directive) are kept verbatim; inline markup is removed per paragraph, since roles
 * and links often wrap across lines.
 */
export function rstToText(src: string): string {
  const lines = src.replace(/\r/g, '').split('\n');
  const styles: string[] = [];
  const out: string[] = [];
  let para: string[] = [];
  let skipIndent = -1;
  let literal = -1;
  let literalBody = false;
  const flush = (): void => {
    if (para.length) out.push(inline(para.join('\n')));
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const indent = /^ */.exec(line)![0].length;
    if (skipIndent >= 0) {
      if (line.trim() === '' || indent > skipIndent) continue;
      skipIndent = -1;
    }
    if (literal >= 0) {
      if (line.trim() === '') {
        out.push('');
        continue;
      }
      if (indent > literal) {
        if (!literalBody && /^\s*:[\w-]+:/.test(line)) continue; // code-block options
        literalBody = true;
        out.push(line);
        continue;
      }
      literal = -1;
    }
    const next = lines[i + 1] ?? '';
    if (RST_UNDERLINE.test(line) && RST_UNDERLINE.test(lines[i + 2] ?? '') && next.trim()) {
      flush();
      out.push(heading(styles, `o${line[0]}`, next));
      i += 2;
      continue;
    }
    if (line.trim() && !RST_UNDERLINE.test(line) && RST_UNDERLINE.test(next) && next.trim().length >= line.trim().length - 2 && indent === 0) {
      flush();
      out.push(heading(styles, next[0]!, line));
      i += 1;
      continue;
    }
    const directive = /^(\s*)\.\. ([a-zA-Z:-]+)::\s*(.*)$/.exec(line);
    if (directive) {
      flush();
      const [, , name, arg] = directive;
      // Prose-bearing directives keep their body; the rest (toctree, index, images, module markers...) go.
      if (/^(note|warning|tip|important|seealso|versionadded|versionchanged|deprecated|attention|caution|hint)$/.test(name!)) {
        if (arg) out.push(`${cap(name!)}: ${inline(arg)}`);
        continue;
      }
      if (/^(function|method|class|data|attribute|exception|decorator|describe|option|envvar|cmdoption|c:function|c:type|c:macro|c:member|c:var|opcode|pdbcommand|module|currentmodule)$/.test(name!)) {
        if (arg && !/module/.test(name!)) out.push(inline(arg));
        continue;
      }
      if (/^(code-block|code|sourcecode|productionlist|doctest|testcode|testsetup|testoutput)$/.test(name!)) {
        (literal = indent), (literalBody = false);
        continue;
      }
      skipIndent = indent;
      continue;
    }
    if (/^\s*\.\. /.test(line) || /^\s*\.\.\s*$/.test(line)) {
      flush();
      skipIndent = indent;
      continue;
    }
    if (/^\s*:(synopsis|platform|noindex|module|canonical|title|emphasize-lines|linenos|caption|maxdepth|glob|hidden|deprecated|audit-event)/.test(line)) continue;
    if (line.trim() === '') {
      flush();
      out.push('');
      continue;
    }
    if (/::\s*$/.test(line)) {
      if (line.trim() !== '::') para.push(line.replace(/::\s*$/, ':'));
      flush();
      (literal = indent), (literalBody = false);
      continue;
    }
    para.push(line);
  }
  flush();
  return out.join('\n');
}

function heading(styles: string[], style: string, title: string): string {
  if (!styles.includes(style)) styles.push(style);
  return `\n${HEADING_MARK}${Math.min(6, styles.indexOf(style) + 1)} ${inline(title.trim())}\n`;
}

function cap(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}

/** Inline roles and links: :func:`~os.path.join` → os.path.join(), `text <url>`_ → text, **b** → b. */
function inline(s: string): string {
  return s
    .replace(/:[a-zA-Z:]+:`~?!?([^`<]*?)\s*<[^`>]*>`/g, '$1')
    .replace(/:(?:func|meth):`~?!?([^`]+)`/g, (_a, n: string) => `${n.split('.').pop()!.replace(/\(\)$/, '')}()`)
    .replace(/:[a-zA-Z:]+:`~?!?([^`]+)`/g, (_a, n: string) => n)
    .replace(/`([^`<]+?)\s*<[^`>]+>`__?/g, '$1')
    .replace(/``([^`]+)``/g, '$1')
    .replace(/`([^`]+)`_{0,2}/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/(^|\s)\*([^*\s][^*]*)\*/g, '$1$2')
    .replace(/\|([a-zA-Z-]+)\|/g, '$1')
    .replace(/\\([^\n])/g, '$1');
}

/** AsciiDoc (git's documentation sources) → text with heading marks. */
export function asciidocToText(src: string): string {
  const out: string[] = [];
  const lines = src.replace(/\r/g, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1] ?? '';
    if (/^(include|ifdef|ifndef|endif|ifeval)::/.test(line) || /^:[a-zA-Z-]+:/.test(line) || /^\/\/(?!\/)/.test(line)) continue;
    if (/^\[.*\]$/.test(line.trim()) || /^(-{4,}|\.{4,}|\+{4,}|_{4,}|\*{4,}|={4,})$/.test(line.trim())) continue;
    const title = /^(=+)\s+(.+?)\s*=*$/.exec(line);
    if (title) {
      out.push(`\n${HEADING_MARK}${Math.min(6, title[1]!.length)} ${adocInline(title[2]!)}\n`);
      continue;
    }
    if (line.trim() && /^([=\-~^+])\1{2,}$/.test(next.trim()) && Math.abs(next.trim().length - line.trim().length) <= 2) {
      const level = '=-~^+'.indexOf(next.trim()[0]!) + 1;
      out.push(`\n${HEADING_MARK}${level} ${adocInline(line.trim())}\n`);
      i += 1;
      continue;
    }
    if (line === '+') continue;
    out.push(adocInline(line));
  }
  return out.join('\n');
}

function adocInline(s: string): string {
  return s
    .replace(/linkgit:([\w.-]+)\[(\d)\]/g, '$1($2)')
    .replace(/link:[^\s[]+\[([^\]]*)\]/g, '$1')
    .replace(/(https?:\/\/[^\s[]+)\[([^\]]*)\]/g, (_a, url: string, label: string) => label || url)
    .replace(/<<[^,>]+,\s*([^>]+)>>/g, '$1')
    .replace(/<<([^>]+)>>/g, '$1')
    .replace(/\{(litdd)\}/g, '--')
    .replace(/\{(caret)\}/g, '^')
    .replace(/\{tilde\}/g, '~')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/(^|[\s(])'([^'\n]+)'(?=[\s.,;:)]|$)/g, '$1$2')
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=[\s.,;:)]|$)/g, '$1$2')
    .replace(/(^|[\s(])_([^_\n]+)_(?=[\s.,;:)]|$)/g, '$1$2')
    .replace(/::$/, ':');
}
