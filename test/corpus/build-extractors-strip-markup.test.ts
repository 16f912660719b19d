// The corpus build's extractors: HTML loses navigation, scripts and tags but keeps code and entities; dictd
// databases are read entry by entry; reStructuredText and AsciiDoc lose their markup; sections merge when small.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readDictd } from '../../corpus/build/dictd.js';
import { HEADING_MARK, htmlToText } from '../../corpus/build/html-text.js';
import { asciidocToText, rstToText } from '../../corpus/build/markup-text.js';
import { splitSections } from '../../corpus/build/sections.js';
import { tempDir } from './helpers.js';

t.test('html to text', async (t) => {
  const html = `<html><head><title>T</title><style>p{}</style></head><body>
    <div class="navheader"><a href="x">Prev</a> <div>Next</div></div>
    <h2 class="title">Intro &amp; <code>use</code></h2>
    <p>Hello&nbsp;<b>bold</b>   world &lt;3 &#x2014; &#8212; &unknown;</p>
    <pre>  indented
    code();</pre><script>alert(1)</script>
    <ul><li><p>one</p></li><li>two</li></ul>
    <div class="navfooter">Footer</div></body></html>`;
  const text = htmlToText(html, { skipClass: /^(navheader|navfooter)$/ });
  t.equal(text, `${HEADING_MARK}2 Intro & use\n\nHello bold world <3 — — &unknown;\n\n  indented\n    code();\n\n- one\n- two`);
  t.equal(htmlToText('<nav>menu</nav><main><p>in</p></main><p>out</p>', { onlyInside: 'main' }), 'in');
});

t.test('dictd database', async (t) => {
  const dir = tempDir(t);
  const body = 'alpha\n   first entry text\n\nbeta\n   second\n';
  const b64 = (n: number): string => {
    const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    let s = '';
    do (s = A[n % 64] + s, (n = Math.floor(n / 64))); while (n > 0);
    return s;
  };
  const second = body.indexOf('beta');
  writeFileSync(join(dir, 'd.dict.dz'), gzipSync(body));
  writeFileSync(join(dir, 'd.index'), [
    `00-database-short\t${b64(0)}\t${b64(3)}`, `alpha\t${b64(0)}\t${b64(second)}`, `a\t${b64(0)}\t${b64(second)}`,
    `beta\t${b64(second)}\t${b64(body.length - second)}`,
  ].join('\n'));
  t.same(readDictd(join(dir, 'd.index'), join(dir, 'd.dict.dz')), [
    { headwords: ['alpha', 'a'], text: 'alpha\n   first entry text\n\n' },
    { headwords: ['beta'], text: 'beta\n   second\n' },
  ]);
});

t.test('rst and asciidoc', async (t) => {
  const rst = 'Title\n=====\n\n.. index:: foo\n   bar\n\nUse :func:`os.path.join` and ``x`` with `link <http://a>`_ and **b**.\n\n.. note:: Careful.\n\nSub\n---\n\nText::\n\n   code\n';
  const squeeze = (s: string): string => s.replace(/\n{3,}/g, '\n\n').trim();
  t.equal(squeeze(rstToText(rst)), `${HEADING_MARK}1 Title\n\nUse join() and x with link and b.\n\nNote: Careful.\n\n${HEADING_MARK}2 Sub\n\nText:\n\n   code`);
  const adoc = 'git-x(1)\n========\n\nNAME\n----\ngit-x - do it\n\ninclude::foo.txt[]\nSee linkgit:git-log[1] and `--all` and \'pathspec\'.\n';
  t.equal(squeeze(asciidocToText(adoc)), `${HEADING_MARK}1 git-x(1)\n\n${HEADING_MARK}2 NAME\n\ngit-x - do it\n\nSee git-log(1) and --all and pathspec.`);
});

t.test('sections split at headings and merge small neighbours', async (t) => {
  const marked = `${HEADING_MARK}1 A\n${'a'.repeat(700)}\n${HEADING_MARK}2 B\nshort\n${HEADING_MARK}2 C\n${'c'.repeat(700)}\n${HEADING_MARK}3 Tip\nstays\n${HEADING_MARK}2 D\ntiny`;
  const s = splitSections(marked, 'Page');
  t.same(s.map((x) => x.title), ['A', 'B']);
  t.match(s[1]!.text, /^B\nshort\n\nC\nc+\nTip\nstays\n\nD\ntiny$/, 'a tip box is no section; the short tail joins');
});
