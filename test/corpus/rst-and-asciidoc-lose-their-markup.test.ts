// The corpus build's reStructuredText and AsciiDoc extractors drop directives and inline markup and mark headings.
import t from 'tap';
import { HEADING_MARK } from '../../corpus/build/html-text.js';
import { asciidocToText, rstToText } from '../../corpus/build/markup-text.js';

t.test('rst and asciidoc', async (t) => {
  const rst = 'Title\n=====\n\n.. index:: foo\n   bar\n\nUse :func:`os.path.join` and ``x`` with `link <http://a>`_ and **b**.\n\n.. note:: Careful.\n\nSub\n---\n\nText::\n\n   code\n';
  const squeeze = (s: string): string => s.replace(/\n{3,}/g, '\n\n').trim();
  t.equal(squeeze(rstToText(rst)), `${HEADING_MARK}1 Title\n\nUse join() and x with link and b.\n\nNote: Careful.\n\n${HEADING_MARK}2 Sub\n\nText:\n\n   code`);
  const adoc = 'git-x(1)\n========\n\nNAME\n----\ngit-x - do it\n\ninclude::foo.txt[]\nSee linkgit:git-log[1] and `--all` and \'pathspec\'.\n';
  t.equal(squeeze(asciidocToText(adoc)), `${HEADING_MARK}1 git-x(1)\n\n${HEADING_MARK}2 NAME\n\ngit-x - do it\n\nSee git-log(1) and --all and pathspec.`);
});
