// Marked text is split into sections at headings; small neighbours and tip boxes merge into a section.
import t from 'tap';
import { HEADING_MARK } from '../../corpus/build/html-text.js';
import { splitSections } from '../../corpus/build/sections.js';

t.test('sections split at headings and merge small neighbours', async (t) => {
  const marked = `${HEADING_MARK}1 A\n${'a'.repeat(700)}\n${HEADING_MARK}2 B\nshort\n${HEADING_MARK}2 C\n${'c'.repeat(700)}\n${HEADING_MARK}3 Tip\nstays\n${HEADING_MARK}2 D\ntiny`;
  const s = splitSections(marked, 'Page');
  t.same(s.map((x) => x.title), ['A', 'B']);
  t.match(s[1]!.text, /^B\nshort\n\nC\nc+\nTip\nstays\n\nD\ntiny$/, 'a tip box is no section; the short tail joins');
});
