// The corpus build's HTML extractor drops navigation, styles, scripts and tags, keeps code and entities,
// marks headings, and can keep only what is inside one element.
import t from 'tap';
import { HEADING_MARK, htmlToText } from '../../corpus/build/html-text.js';

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
