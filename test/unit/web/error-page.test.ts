import t from 'tap';
import { errorPage, expiredPage, notFoundPage, tooManyRequestsPage, unavailablePage } from '../../../src/web/error-page.js';
import { ENGLISH, translator } from '../../../src/web/i18n/translator.js';

const SWITCH = /<nav class="language-switch"/;

t.test('the error pages a pupil may see have the language switch, for the address asked', async (t) => {
  const fr = translator('fr');
  for (const [what, page] of [
    ['expired', expiredPage(fr, '/interaction/abc/emoji?org=north')],
    ['not found', notFoundPage(fr, '/interaction/abc/emoji?org=north')],
    ['unavailable', unavailablePage(fr, '/interaction/abc/emoji?org=north')],
    ['too many', tooManyRequestsPage(30, fr, '/interaction/abc/emoji?org=north')],
  ] as const) {
    t.match(page, SWITCH, `${what}: the switch`);
    t.match(page, 'href="/interaction/abc/emoji?org=north&amp;lang=es"', `${what}: to the same address, in Spanish`);
    t.match(page, '<html lang="fr" dir="ltr">', `${what}: in the page's language`);
  }
  t.match(expiredPage(fr, '/.//evil.example'), 'href="/?lang=es"', 'guarded as the switch is');
  t.notMatch(errorPage('Nope', 'No.', 'x'), SWITCH, 'pages no pupil sees (no address given): none');
  t.notMatch(expiredPage(ENGLISH), SWITCH);
});

t.test('the 429 page says its wait in the words the other pages use (src/web/waits.ts)', async (t) => {
  t.match(tooManyRequestsPage(30, ENGLISH), '30 seconds');
  t.match(tooManyRequestsPage(80, translator('fr')), 'environ une minute');
  t.match(tooManyRequestsPage(600, translator('es')), '10 minutos');
  t.match(tooManyRequestsPage(1, translator('es')), '1 segundo');
});
