import t from 'tap';
import { breakableCode, emailAddress, flash, slashed, withAddresses } from '../../../src/web/components.js';

/** The parts a line may break between (each kept whole by `.breakable > span`). */
const parts = (value: string) => [...value.matchAll(/<span>([^<]*)<\/span>/g)].map((m) => m[1]);

t.test('slashed(): a URL or path breaks after a slash, never inside "//" nor after a slash that starts it', async (t) => {
  t.same(parts(slashed('https://app.example.com/auth/callback').value), ['https://', 'app.example.com/', 'auth/', 'callback']);
  t.same(parts(slashed('http://').value), ['http://'], 'not "http:/" then "/"');
  t.same(parts(slashed('/developer/invitations/<token>').value), ['/developer/', 'invitations/', '&lt;token&gt;'], 'no lone "/" at a line end; escaped');
  t.same(parts(slashed('POST /developer/api/tokens').value), ['POST /developer/', 'api/', 'tokens'], 'nor after the slash a method is followed by');
  t.match(slashed('a/b').value, /^<code class="breakable"><span>a\/<\/span><wbr><span>b<\/span><\/code>$/, 'a <wbr> between the parts');
});

t.test('breakableCode() and emailAddress(): after the characters given, never at a hyphen', async (t) => {
  t.same(parts(breakableCode('{"alg":"RS256","typ":"JWT"}', ',').value), ['{&quot;alg&quot;:&quot;RS256&quot;,', '&quot;typ&quot;:&quot;JWT&quot;}']);
  t.same(parts(emailAddress('ada-phone@reading-quest.example').value), ['ada-phone@', 'reading-quest.', 'example']);
  t.match(emailAddress('a@b.c').value, /^<span class="breakable">/, 'an address is text, not code');
});

t.test('withAddresses() and flash(): an address inside a sentence breaks as emailAddress() says, the rest escaped as it is', async (t) => {
  const text = 'Invitation recorded for dev2-a63604@example.org; they see it when they sign in.';
  t.equal(withAddresses(text).value,
    `Invitation recorded for ${emailAddress('dev2-a63604@example.org').value}; they see it when they sign in.`, 'the address up to its last letter, not the ";"');
  t.equal(withAddresses('Sent to a@b.example.').value, `Sent to ${emailAddress('a@b.example').value}.`, 'nor the full stop after it');
  t.equal(withAddresses('No address <here> & none @ all').value, 'No address &lt;here&gt; &amp; none @ all', 'text without one only escaped');
  t.match(String((flash('Invitation recorded for x-y@example.org.') as { value: string }).value), /<span class="breakable"><span>x-y@<\/span>/, 'flash() marks addresses in its text');
});

t.test('emailAddress(): an address stored with invisible, direction or control characters shows each written out, never raw', async (t) => {
  const shown = emailAddress('carol@example.org\u200B').value;
  t.equal(parts(shown).join(''), 'carol@example.org[U+200B]');
  t.notMatch(emailAddress('eve\u202E@gro.elpmaxe\u0000\uFEFF\u2066').value, /[\u200B\u202E\u0000\uFEFF\u2066]/u, 'none of them reaches the page');
  t.match(withAddresses('Invited bob\u202E@example.org.').value, 'bob[U+202E]@', 'nor inside a sentence');
});
