// The shipped corpus's sources: which Debian package (pinned version) each comes from, its license, its kind,
// its share of the character budget, and how its files become documents. Read by scripts/build-corpus.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { dedent, readDictd } from './dictd.js';
import { htmlToText, decodeEntities } from './html-text.js';
import { asciidocToText, rstToText } from './markup-text.js';
import { splitSections } from './sections.js';

export type DocKind = 'encyclopedic' | 'reference' | 'howto';

export interface RawDoc {
  /** Unique within the source; no '#' (chunk ids use it). */
  key: string;
  title: string;
  text: string;
  kind: DocKind;
}

export interface SourceDef {
  name: string;
  description: string;
  /** Debian package and exact version the text is extracted from. */
  pkg: string;
  version: string;
  license: string;
  /** Most characters taken from this source; documents beyond it are dropped in a seeded, stable order. */
  maxChars: number;
  extract(root: string): RawDoc[];
}

/** Files under `dir` (recursive) whose relative path matches `re`, sorted. */
function files(dir: string, re: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && re.test(relative(dir, p))) out.push(p); // symlinks (dangling ones in rust-doc) are skipped
    }
  };
  walk(dir);
  return out;
}

function dictDocs(root: string, db: string, kind: DocKind, clean: (t: string) => string): RawDoc[] {
  const dir = join(root, 'usr/share/dictd');
  return readDictd(join(dir, `${db}.index`), join(dir, `${db}.dict.dz`)).map((e) => {
    const nl = e.text.indexOf('\n');
    const text = clean(nl < 0 ? e.text.trim() : `${e.text.slice(0, nl).trim()}\n${dedent(e.text.slice(nl + 1))}`);
    return { key: e.headwords[0]!, title: text.split('\n')[0]!.trim(), text, kind };
  });
}

// {cross references} of FOLDOC and the Jargon File become plain words.
const unbrace = (t: string): string => t.replace(/\{([^{}]*)\}/g, '$1');

function pageTitle(html: string): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return m ? decodeEntities(m[1]!.replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim() : '';
}

function htmlDocs(dir: string, paths: string[], kindOf: (rel: string) => DocKind, opts: Parameters<typeof htmlToText>[1], maxLevel = 3): RawDoc[] {
  const out: RawDoc[] = [];
  for (const p of paths) {
    const html = readFileSync(p, 'utf8');
    const rel = relative(dir, p).replace(/\.html?$/, '');
    const title = pageTitle(html) || basename(rel);
    splitSections(htmlToText(html, opts), title, maxLevel).forEach((s, i) =>
      out.push({ key: `${rel}/${i}`, title: s.title === title ? title : `${title}: ${s.title}`, text: s.text, kind: kindOf(rel) }));
  }
  return out;
}

function markupDocs(dir: string, paths: string[], toText: (s: string) => string, kindOf: (rel: string) => DocKind): RawDoc[] {
  const out: RawDoc[] = [];
  for (const p of paths) {
    const rel = relative(dir, p).replace(/\.(rst\.txt|txt)$/, '');
    splitSections(toText(readFileSync(p, 'utf8')), rel, 3).forEach((s, i) =>
      out.push({ key: `${rel}/${i}`, title: s.title, text: s.text, kind: kindOf(rel) }));
  }
  return out;
}

const MB = 1_000_000;

export const SOURCES: SourceDef[] = [
  {
    name: 'foldoc', description: 'Free On-line Dictionary of Computing (Denis Howe et al.), 2023-01-19',
    pkg: 'dict-foldoc', version: '20230119-1', license: 'GFDL-1.1-or-later', maxChars: 3.2 * MB,
    extract: (root) => dictDocs(root, 'foldoc', 'encyclopedic', unbrace),
  },
  {
    name: 'jargon', description: 'The Jargon File 4.4.7 (Eric S. Raymond, ed.)',
    pkg: 'dict-jargon', version: '4.4.7-3.1', license: 'public-domain', maxChars: 1.2 * MB,
    extract: (root) => dictDocs(root, 'jargon', 'encyclopedic', unbrace),
  },
  {
    name: 'gcide', description: "GNU Collaborative International Dictionary of English 0.48.5 (Webster's 1913 + additions)",
    pkg: 'dict-gcide', version: '0.48.5+nmu2', license: 'GPL-2.0-or-later', maxChars: 0.6 * MB,
    extract: (root) => dictDocs(root, 'gcide', 'encyclopedic',
      (t) => t.replace(/^\s*\[(1913 Webster|PJC|Webster 1913 Suppl\.|Century Dict\.|WordNet 1\.5)[^\]]*\]\s*$/gm, '').replace(/\n{3,}/g, '\n\n').trim())
      .filter((d) => d.text.length >= 900),
  },
  {
    name: 'devil', description: "The Devil's Dictionary (Ambrose Bierce, 1911)",
    pkg: 'dict-devil', version: '1.0-13.1', license: 'public-domain', maxChars: 0.3 * MB,
    extract: (root) => dictDocs(root, 'devil', 'encyclopedic', (t) => t),
  },
  {
    name: 'elements', description: 'Chemical elements database (Jay Kominek)',
    pkg: 'dict-elements', version: '20001107-a-9.1', license: 'public-domain', maxChars: 0.1 * MB,
    extract: (root) => dictDocs(root, 'elements', 'encyclopedic', (t) => t),
  },
  {
    name: 'python-docs', description: 'Python 3.11 documentation (tutorial, HOWTOs, FAQ, library and language reference)',
    pkg: 'python3.11-doc', version: '3.11.2-6+deb12u9', license: 'PSF-2.0', maxChars: 3.5 * MB,
    extract: (root) => {
      const dir = join(root, 'usr/share/doc/python3.11/html/_sources');
      return markupDocs(dir, files(dir, /^(tutorial|howto|faq|library|reference)\/(?!index\.).*\.rst\.txt$|^glossary\.rst\.txt$/), rstToText,
        (rel) => (/^(tutorial|howto|faq)\//.test(rel) ? 'howto' : 'reference'));
    },
  },
  {
    name: 'postgresql-docs', description: 'PostgreSQL 15 documentation (tutorial, SQL reference, administration)',
    pkg: 'postgresql-doc-15', version: '15.20-0+deb12u1', license: 'PostgreSQL', maxChars: 2.4 * MB,
    extract: (root) => {
      const dir = join(root, 'usr/share/doc/postgresql-doc-15/html');
      return htmlDocs(dir, files(dir, /^(?!release-|bookindex|index|appendix-obsolete).*\.html$/),
        (rel) => (/^(tutorial|install|backup|runtime|client-auth|maintenance|monitoring|high-availability|logical-replication)/.test(rel) ? 'howto' : 'reference'),
        { skipClass: /^(navheader|navfooter|toc|footnotes)$/ });
    },
  },
  {
    name: 'sqlite-docs', description: 'SQLite 3.40 documentation (SQL language, C interface, file format, how-tos)',
    pkg: 'sqlite3-doc', version: '3.40.1-2+deb12u2', license: 'public-domain', maxChars: 1.6 * MB,
    extract: (root) => {
      const dir = join(root, 'usr/share/doc/sqlite3');
      return htmlDocs(dir, files(dir, /^(c3ref\/[^/]+|(?!releaselog|syntax|search|sitemap|keyword_index|toc|docs|index|changes|chronology|news|fileio|capi3ref)[^/]+)\.html$/),
        (rel) => (/^(quickstart|cli|howtocorrupt|lockingv3|backup|json1|fts5|rtree|whentouse|faq|lang_with|optoverview|queryplanner)/.test(rel) ? 'howto' : 'reference'),
        { skipClass: /^(nosearch|menu.*|searchmenu|tagline.*|fancy_toc|toc_sub|fancy-toc\d)$/ });
    },
  },
  {
    name: 'git-docs', description: 'Git 2.39 documentation (command manuals, user manual, tutorials, HOWTOs)',
    pkg: 'git-doc', version: '1:2.39.5-0+deb12u3', license: 'GPL-2.0-only', maxChars: 2.2 * MB,
    extract: (root) => {
      const dir = join(root, 'usr/share/doc/git-doc');
      return markupDocs(dir, files(dir, /^(git[\w-]*|user-manual|MyFirstContribution|howto\/[\w-]+|technical\/[\w-]+)\.txt$/), asciidocToText,
        (rel) => (/^(howto\/|user-manual|gittutorial|gitcore-tutorial|giteveryday|gitworkflows|MyFirst)/.test(rel) ? 'howto' : 'reference'));
    },
  },
  {
    name: 'debian-reference', description: 'Debian Reference 2.100 (Osamu Aoki): system administration how-to',
    pkg: 'debian-reference-en', version: '2.100', license: 'GPL-2.0-or-later', maxChars: 1.6 * MB,
    extract: (root) => {
      const dir = join(root, 'usr/share/debian-reference');
      return htmlDocs(dir, files(dir, /^(ch\d+|ap[a-z])\.en\.html$/), () => 'howto',
        { skipClass: /^(navheader|navfooter|toc|list-of-tables)$/ }, 4);
    },
  },
  {
    name: 'debian-handbook', description: "The Debian Administrator's Handbook, Debian 11 (Raphaël Hertzog, Roland Mas)",
    pkg: 'debian-handbook', version: '11.20220922', license: 'GPL-2.0-or-later OR CC-BY-SA-3.0', maxChars: 2.0 * MB,
    extract: (root) => {
      const dir = join(root, 'usr/share/doc/debian-handbook/html/en-US');
      return htmlDocs(dir, files(dir, /^[\w.-]+\.html$/), () => 'howto',
        { skipClass: /^(banner|navheader|navfooter|toc|docnav|indexterm|index)$/ });
    },
  },
  {
    name: 'rust-book', description: 'The Rust Programming Language (Klabnik, Nichols) and Rust by Example, Rust 1.63',
    pkg: 'rust-doc', version: '1.63.0+dfsg1-2', license: 'MIT OR Apache-2.0', maxChars: 1.8 * MB,
    extract: (root) => {
      const dir = join(root, 'usr/share/doc/rust-doc/html');
      return htmlDocs(dir, files(dir, /^(book\/(ch\d|appendix)[\w-]*|rust-by-example\/[\w-]+(\/[\w-]+)?)\.html$/), () => 'howto',
        { onlyInside: 'main', skipClass: /^(nav-chapters|mobile-nav-chapters|buttons)$/ });
    },
  },
];
