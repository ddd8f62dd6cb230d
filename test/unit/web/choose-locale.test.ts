import Fastify from 'fastify';
import t, { type Test } from 'tap';
import { isLocale, type Locale } from '../../../src/formats/locales.js';
import { chooseLocale, LANGUAGE_COOKIE, translatorFor } from '../../../src/web/i18n/choose-locale.js';

/** A page that says the language chosen for it: `?school=` plays the school's setting. */
async function page(t: Test) {
  const app = Fastify();
  app.get<{ Querystring: { school?: string } }>('/page', async (req, reply) => {
    const school = isLocale(req.query.school) ? req.query.school : undefined;
    const tr = translatorFor(req, reply, school);
    return { locale: tr.locale, dir: tr.dir, plain: chooseLocale(req, school) };
  });
  await app.ready();
  t.teardown(() => app.close());
  return async (url: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'GET', url, headers });
    const body = res.json() as { locale: Locale; dir: string; plain: Locale };
    return { ...body, cookie: res.headers['set-cookie'], vary: res.headers.vary };
  };
}

t.test('the order: the switch, then its cookie, then the school, then Accept-Language, then English', async (t) => {
  const ask = await page(t);
  const cookie = `${LANGUAGE_COOKIE}=fr`;
  t.equal((await ask('/page?lang=es&school=ar', { cookie, 'accept-language': 'fr' })).locale, 'es', 'the switch wins over all');
  t.equal((await ask('/page?school=ar', { cookie, 'accept-language': 'es' })).locale, 'fr', 'then the cookie it left');
  t.equal((await ask('/page?school=ar', { 'accept-language': 'es' })).locale, 'ar', 'then the school');
  t.equal((await ask('/page', { 'accept-language': 'es' })).locale, 'es', 'then the browser');
  t.equal((await ask('/page')).locale, 'en', 'then English');
  t.equal((await ask('/page', { 'accept-language': 'de, ja;q=0.8' })).locale, 'en', 'English when the browser asks none of them');
});

t.test('Accept-Language: a regional variant chooses its language; quality counts', async (t) => {
  const ask = await page(t);
  for (const [header, want] of [['es-MX', 'es'], ['fr-CA', 'fr'], ['ar-EG', 'ar'], ['de', 'en'], ['de, fr;q=0.5', 'fr'],
    ['en;q=0.3, ar;q=0.9', 'ar'], ['en-GB,en;q=0.9', 'en']] as const) {
    const got = await ask('/page', { 'accept-language': header });
    t.equal(got.locale, want, `${header} → ${want}`);
    t.equal(got.plain, want, `${header}: chooseLocale agrees`);
  }
  t.equal((await ask('/page', { 'accept-language': 'ar-EG' })).dir, 'rtl', 'Arabic is written right to left');
  t.equal((await ask('/page', { 'accept-language': 'fr' })).dir, 'ltr');
});

t.test('?lang= keeps the choice in an HttpOnly, SameSite=Lax cookie; an unknown language is ignored', async (t) => {
  const ask = await page(t);
  const chosen = await ask('/page?lang=ar');
  const set = String(chosen.cookie);
  t.match(set, new RegExp(`^${LANGUAGE_COOKIE}=ar; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax`), 'kept for the next pages');
  t.match(chosen.vary, /Accept-Language/, 'the answer varies by the headers that chose it');
  t.match(chosen.vary, /Cookie/);
  const again = await ask('/page', { cookie: set.split(';')[0]! });
  t.equal(again.locale, 'ar', 'the next page, without the query, stays in that language');
  t.equal(again.cookie, undefined, 'and writes no cookie again');
  const bad = await ask('/page?lang=xx', { 'accept-language': 'fr' });
  t.equal(bad.locale, 'fr', 'an unknown ?lang= is ignored');
  t.equal(bad.cookie, undefined, 'and not kept');
  t.equal((await ask('/page?lang=EN%3Cb%3E', { cookie: `${LANGUAGE_COOKIE}=zz` })).locale, 'en', 'nor is a cookie naming no language');
  t.equal((await ask('/page?lang[]=es')).locale, 'en', 'a ?lang= that is not one word is ignored');
});
