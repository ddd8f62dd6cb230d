import t from 'tap';
import { errorSwitchUrl, languageSwitch } from '../../../src/web/i18n/language-switch.js';
import { ENGLISH, translator } from '../../../src/web/i18n/translator.js';

/** The switch's links' addresses, in order (en, es, fr, ar). */
const hrefs = (url: string): string[] => [...languageSwitch(ENGLISH, url).value.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

t.test('each language links to the same page, its query kept, with ?lang=', async (t) => {
  t.same(hrefs('/interaction/abc/emoji?org=north'), [
    '/interaction/abc/emoji?org=north&lang=en', '/interaction/abc/emoji?org=north&lang=es',
    '/interaction/abc/emoji?org=north&lang=fr', '/interaction/abc/emoji?org=north&lang=ar',
  ]);
  t.same(hrefs('/?lang=fr'), ['/?lang=en', '/?lang=es', '/?lang=fr', '/?lang=ar'], 'a chosen language replaced, not added');
  const ar = languageSwitch(translator('ar'), '/').value;
  t.match(ar, /hreflang="ar" aria-current="true">العربية/, 'the current one marked');
});

t.test('a path that a browser would read as another site links to the front door', async (t) => {
  for (const url of [
    '/.//evil.example/x', '/..//evil.example', '/%2e//evil.example', '/.\\/evil.example',
    'http://x//evil.example/', 'http://x/\\evil.example/', 'http://x\\\\evil.example/',
  ]) {
    for (const href of hrefs(url)) {
      t.notMatch(href, /^\/[/\\]/, `${JSON.stringify(url)}: ${href}`);
      t.notMatch(href, /evil/, `${JSON.stringify(url)}: nowhere near it`);
    }
    t.same(hrefs(url)[1], '/?lang=es', `${JSON.stringify(url)}: the front door`);
  }
  t.same(hrefs('http://x\\evil.example/'), hrefs('/evil.example/'), 'an absolute-form target: its path (one of this site\'s)');
  t.same(hrefs('http://['), hrefs('/'), 'an address that does not parse: the front door');
});

t.test('an error page offers no switch for a protocol endpoint: its query is an app\'s parameters', async (t) => {
  t.equal(errorSwitchUrl('/oauth/authorize?client_id=x&redirect_uri=https%3A%2F%2Fevil.example%2F'), undefined);
  t.equal(errorSwitchUrl('/oauth/authorize/abc'), undefined);
  t.equal(errorSwitchUrl('/interaction/abc/emoji?org=north'), '/interaction/abc/emoji?org=north');
  t.equal(errorSwitchUrl('/class/ABCDE12345'), '/class/ABCDE12345');
});
