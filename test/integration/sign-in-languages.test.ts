import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { demoAuthorizeUrl, EMOJI_KID, openMethod, postEmoji } from '../helpers/children.js';
import { classroomDevice, tileClass } from '../helpers/class-sign-in.js';
import { writeConfig } from '../helpers/config-file.js';
import { HttpBrowser, hiddenField, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * The sign-in screens speak the pupil's language over real HTTP (docs/languages.md): the browser's, unless the
 * school set one; the switch's choice over both, kept for the next pages.
 */

const CALLBACK = 'http://localhost:8080/callback';

const authorize = (issuer: string, organisation = 'demo-school') => {
  const url = new URL(`${issuer}/oauth/authorize`);
  for (const [k, v] of Object.entries({ client_id: 'demo-app', redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', nonce: 'n', organisation })) {
    url.searchParams.set(k, v);
  }
  return url;
};

/** The method chooser of a fresh sign-in, as a browser asking in `language` sees it; and its address. */
async function chooser(issuer: string, browser: HttpBrowser, headers: Record<string, string>, organisation?: string) {
  const interaction = location(await browser.get(authorize(issuer, organisation), headers), issuer);
  const res = await browser.get(interaction, headers);
  return { interaction, status: res.status, page: await res.text(), vary: res.headers.get('vary') };
}

const frenchSchool = () => writeConfig((c) => {
  c.organisations!.push({ slug: 'ecole-jules', name: 'École Jules Verne', language: 'fr', apps: ['demo-app'], users: [] });
});

t.test('a browser asking for Arabic gets Arabic screens, right to left; English stays the default', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: frenchSchool() } });
  const ar = await chooser(lanyard.url, new HttpBrowser(), { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.5' });
  t.equal(ar.status, 200);
  t.match(ar.page, /<html lang="ar" dir="rtl">/, 'the page says its language and direction');
  t.match(ar.page, /كيف تدخل؟/, 'the chooser asks in Arabic');
  t.match(ar.page, /كلمة سر بالرموز التعبيرية/, 'the methods are named in Arabic');
  t.match(ar.page, /Demo School/, 'the school’s name is data, as it is');
  t.match(ar.page, /class="language-switch"/, 'the language switch is shown');
  t.match(ar.page, /href="[^"]*lang=es"[^>]*lang="es"[^>]*>Español</, 'each language, named in its own words');
  t.match(ar.vary ?? '', /Accept-Language/, 'caches keep each language apart');
  const password = await new HttpBrowser().get(new URL(`${ar.interaction.pathname}/password?org=demo-school`, lanyard.url), { 'accept-language': 'ar' });
  t.equal(password.status, 400, 'another browser has no such sign-in');
  t.match(await password.text(), /<html lang="ar" dir="rtl">[\s\S]*انتهت مهلة الدخول/, 'and its expired page is in Arabic too');

  const en = await chooser(lanyard.url, new HttpBrowser(), {});
  t.match(en.page, /<html lang="en" dir="ltr">/);
  t.match(en.page, /How do you sign in\?/, 'no Accept-Language: English');
});

t.test('a school that set French speaks French, whatever the browser asks', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: frenchSchool() } });
  const fr = await chooser(lanyard.url, new HttpBrowser(), { 'accept-language': 'es-MX,es;q=0.9' }, 'ecole-jules');
  t.match(fr.page, /<html lang="fr" dir="ltr">/);
  t.match(fr.page, /Comment te connectes-tu \?/);
  t.match(fr.page, /École Jules Verne/);
  const demo = await chooser(lanyard.url, new HttpBrowser(), { 'accept-language': 'es-MX,es;q=0.9' });
  t.match(demo.page, /¿Cómo quieres entrar\?/, 'a school that set none: the browser’s language');
});

t.test('?lang= switches, and the next page, without the query, stays in that language', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: frenchSchool() } });
  const browser = new HttpBrowser();
  const headers = { 'accept-language': 'en-GB' };
  const { interaction } = await chooser(lanyard.url, browser, headers, 'ecole-jules');
  const switched = new URL(interaction);
  switched.searchParams.set('lang', 'es');
  const es = await (await browser.get(switched, headers)).text();
  t.match(es, /<html lang="es" dir="ltr">/, 'the switch wins over the school’s French');
  t.match(es, /¿Cómo quieres entrar\?/);
  t.ok(browser.setCookieLines.some((l) => /^lanyard_lang=es; .*HttpOnly; SameSite=Lax/.test(l)), 'kept in a cookie');
  const next = await (await browser.get(new URL(`${interaction.pathname}/password?org=ecole-jules`, lanyard.url), headers)).text();
  t.match(next, /<html lang="es" dir="ltr">/, 'the password page, asked without ?lang=');
  t.match(next, /Entra con tu usuario y tu contraseña/);
  t.match(next, /<label for="password">Contraseña<\/label>/);
  t.match(next, /aria-current="true">Español</, 'the switch shows Spanish as the current language');
});

/** The language switch's links on a page, `&amp;` read as `&`. */
const switchLinks = (page: string): string[] => {
  const nav = /<nav class="language-switch"[\s\S]*?<\/nav>/.exec(page)?.[0] ?? '';
  return [...nav.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
};

t.test('after a wrong try (a POST), the switch reopens the same screen, the school kept, in the new language', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const step = await openMethod(browser, lanyard.url, 'emoji');
  const wrong = await postEmoji(browser, lanyard.url, step, EMOJI_KID.username, ['dog', 'dog', 'dog', 'dog', 'dog', 'dog']);
  t.equal(wrong.status, 401, 'wrong pictures');
  const links = switchLinks(await wrong.text());
  t.same(links, ['en', 'es', 'fr', 'ar'].map((l) => `/interaction/${step.uid}/emoji?org=demo-school&lang=${l}`), 'the screen\'s own address, with its school');
  const es = await browser.get(new URL(links[1]!, lanyard.url));
  t.equal(es.status, 200, 'followed: the keyboard again');
  const page = await es.text();
  t.match(page, /<html lang="es" dir="ltr">/, 'in Spanish');
  t.match(page, /name="org" value="demo-school"/, 'for the same school, not the school picker');
});

t.test('on class sign-in, after wrong pictures the switch reopens the tapped pupil’s keyboard', async (t) => {
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock });
  const { organisation, class: klass, pupils } = await tileClass(lanyard);
  const browser = new HttpBrowser();
  const device = await classroomDevice(lanyard, clock, organisation.id, klass.id);
  browser.cookies.set(device.name, device.value);
  const uid = location(await browser.get(demoAuthorizeUrl(lanyard.url)), lanyard.url).pathname.split('/')[2]!;
  const pupil = `/interaction/${uid}/pupil/${pupils[1]!.id}`;
  const opened = await browser.get(new URL(`${pupil}?org=demo-school`, lanyard.url));
  const keys = await opened.text();
  t.equal(opened.status, 200, 'the tapped pupil\'s keyboard');
  const wrong = await browser.post(new URL(`${pupil}/emoji`, lanyard.url), { csrf: hiddenField(keys, 'csrf'), org: 'demo-school', emoji: 'dog,dog,dog,dog,dog,dog', go: '1' });
  t.equal(wrong.status, 401, 'wrong pictures');
  const links = switchLinks(await wrong.text());
  t.equal(links[3], `${pupil}?org=demo-school&lang=ar`, 'the pupil\'s screen (the form\'s address has no page of its own), with the school');
  const ar = await browser.get(new URL(links[3]!, lanyard.url));
  t.equal(ar.status, 200, 'followed: their keyboard');
  const page = await ar.text();
  t.match(page, /<html lang="ar" dir="rtl">/, 'in Arabic');
  t.match(page, /\u2068Peregrine\u2069/, 'for the same pupil');
  t.match(page, 'aria-label="خيارات أخرى"', 'its other options named in Arabic');
  t.match(page, '>لست في \u2068Demo School\u2069؟ اختر مدرسة أخرى<', 'another school offered in Arabic');
  t.notMatch(page, /Other options|Choose another school/, 'no English left there');

  const asked = await browser.get(new URL(`${pupil}/emoji?org=demo-school&lang=fr`, lanyard.url));
  t.equal(asked.status, 303, 'the form\'s address asked for itself: sent on');
  t.equal(asked.headers.get('location'), `${pupil}?org=demo-school&lang=fr`, 'to the pupil\'s screen, the query kept');
  t.match(asked.headers.get('cache-control') ?? '', /no-store/);
});

t.test('the error pages a pupil may land on have the switch too, and it works there', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const expired = await browser.get(`${lanyard.url}/interaction/gone/emoji?org=demo-school`, { 'accept-language': 'fr' });
  t.equal(expired.status, 400, 'a sign-in that is over');
  const links = switchLinks(await expired.text());
  t.equal(links[1], '/interaction/gone/emoji?org=demo-school&lang=es', 'the expired page: the switch, for its address');
  const es = await browser.get(new URL(links[1]!, lanyard.url), { 'accept-language': 'fr' });
  t.match(await es.text(), /<html lang="es" dir="ltr">[\s\S]*<code>sign_in_expired<\/code>/, 'followed: the same page, in Spanish');

  const missing = await browser.get(`${lanyard.url}/no-such-page`, { accept: 'text/html', 'accept-language': 'ar' });
  t.equal(missing.status, 404);
  t.same(switchLinks(await missing.text()), ['en', 'es', 'fr', 'ar'].map((l) => `/no-such-page?lang=${l}`), 'an unknown address: the switch too');
});
