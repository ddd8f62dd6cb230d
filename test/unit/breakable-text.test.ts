import t from 'tap';
import { breakableCode, emailAddress, slashed } from '../../src/web/components.js';

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
