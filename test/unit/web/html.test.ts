import t from 'tap';
import { esc, html, Raw, raw } from '../../../src/web/html.js';

t.test('esc escapes the five HTML-significant characters', async (t) => {
  t.equal(esc(`<script>alert("x") & 'y'</script>`), '&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;');
  t.equal(esc('&lt;'), '&amp;lt;', 'an existing entity is escaped again, not trusted');
  t.equal(esc(42), '42', 'numbers as text');
  t.equal(esc('plain text'), 'plain text', 'plain text unchanged');
});

t.test('html escapes every interpolated value', async (t) => {
  const name = `"><img src=x onerror='alert(1)'>&`;
  const out = html`<input value="${name}"><p>${name}</p>`;
  t.ok(out instanceof Raw, 'returns Raw, so it nests');
  t.equal(
    out.value,
    '<input value="&quot;&gt;&lt;img src=x onerror=&#39;alert(1)&#39;&gt;&amp;"><p>&quot;&gt;&lt;img src=x onerror=&#39;alert(1)&#39;&gt;&amp;</p>',
  );
  t.notMatch(out.value, /<img/, 'no injected element');
});

t.test('html keeps Raw and nested templates, joins arrays, drops empty values', async (t) => {
  t.equal(html`<div>${raw('<b>bold</b>')}</div>`.value, '<div><b>bold</b></div>', 'Raw kept as is');
  const items = ['<a>', 'b&'];
  t.equal(html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`.value, '<ul><li>&lt;a&gt;</li><li>b&amp;</li></ul>', 'nested and joined');
  t.equal(html`<p>${['<x>', raw('<y>')]}</p>`.value, '<p>&lt;x&gt;<y></p>', 'arrays: plain items escaped, Raw kept');
  t.equal(html`[${undefined}|${null}|${false}]`.value, '[||]', 'undefined, null and false render nothing');
  t.equal(html`[${0}|${''}|${true}]`.value, '[0||true]', 'but 0 and true do');
  t.equal(html`no values`.value, 'no values', 'a template without values');
});
