import pino from 'pino';
import t from 'tap';
import type { DeveloperAccount } from '../../adapters/store.js';
import { ManualClock } from '../../src/clock.js';
import { LogoFetcher } from '../../src/clients/logo-fetcher.js';
import { actorOf } from '../../src/developer/actor.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { AppService } from '../../src/developer/app-service.js';
import { createDeveloper, formCsrf } from '../helpers/developer.js';
import { apiClient } from '../helpers/developer-api-client.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { GIF_1X1, LOGO_HOST, PNG_1X1, startLogoServer } from '../helpers/logo-server.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';

/**
 * Apps' logos (docs/security.md → App logos): fetched once by Lanyard when set, stored, and served from
 * Lanyard's own origin; the dashboard asks no app's host for anything, and its CSP lets no other origin's
 * image in.
 */

const quiet = pino({ level: 'silent' });
const clock = new ManualClock(new Date());
const server = await startLogoServer(t);
const lanyard = await startLanyard(t, { clock, logoFetcher: new LogoFetcher(server.policy) });
const call = apiClient(lanyard);

async function developer(name: string): Promise<{ account: DeveloperAccount; token: string }> {
  const now = clock.now().toISOString();
  const account: DeveloperAccount = {
    id: `dev_${name.toLowerCase()}_${Math.random().toString(36).slice(2, 8)}`,
    email: `${name.toLowerCase()}.${Math.random().toString(36).slice(2, 8)}@example.com`,
    displayName: name, passwordHash: 'unused', createdAt: now, updatedAt: now,
  };
  await lanyard.store.createDeveloper(account);
  const { token } = await new ApiTokens({ store: lanyard.store, clock, log: quiet }).create(account, { label: 'script', expiresInDays: 30 });
  return { account, token };
}

const ada = await developer('Ada');
const paths = (json: { fields?: { path: string }[] }) => (json.fields ?? []).map((f) => f.path);

/** The dashboard of Demo School's teacher, signed in from `/`. */
async function dashboardOf(l: Lanyard): Promise<{ page: string; csp: string; browser: HttpBrowser }> {
  const browser = new HttpBrowser();
  const start = await browser.get(`${l.url}/sign-in?org=${TEACHER.organisation}`);
  const done = await signIn(browser, l.url, location(start, l.url), TEACHER);
  await browser.get(done);
  const home = await browser.get(`${l.url}/`);
  return { page: await home.text(), csp: home.headers.get('content-security-policy') ?? '', browser };
}

/** A live app of Demo School with this logo URL, registered as a developer registers it. */
async function liveAppWithLogo(l: Lanyard, logoUrl: string) {
  const apps = new AppService({ store: l.store, clock, log: quiet, logos: new LogoFetcher(server.policy) });
  const registered = await apps.register(actorOf(ada.account), { name: 'Logo Lab', logoUrl });
  const demo = (await l.store.findOrganisation('demo-school'))!;
  await l.store.putClient({ ...registered, status: 'live', redirectUris: ['https://logo-lab.example/cb'] });
  await l.store.putConnection({ organisationId: demo.id, clientId: registered.clientId, position: 50, source: 'operator', createdAt: clock.now().toISOString() });
  return (await l.store.findClient(registered.clientId))!;
}

t.test('the dashboard shows a live app\'s logo from Lanyard\'s own origin, and its CSP lets no other origin\'s image in', async (t) => {
  const app = await liveAppWithLogo(lanyard, `${server.origin}/logo.png`);
  const fetches = server.requests.length;
  const { page, csp } = await dashboardOf(lanyard);
  t.match(page, /Logo Lab/, 'the app is on the dashboard');
  const srcs = [...page.matchAll(/<img[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1]!);
  t.ok(srcs.length > 0, 'the logo is shown');
  for (const src of srcs) t.match(src, /^\//, `an image from Lanyard's origin: ${src}`);
  t.notMatch(page, new RegExp(LOGO_HOST.replace('.', '\\.')), 'the app\'s host appears nowhere in the page');
  t.notMatch(page, /https?:\/\/[^"\s]*\.(png|gif|jpe?g|webp|svg)/i, 'no image address on another origin');
  const imgSrc = /img-src ([^;]*)/.exec(csp)?.[1] ?? '';
  t.equal(imgSrc, "'self' data:", 'img-src: Lanyard and data: only');
  t.notMatch(csp, /https:/, 'no https: source anywhere in the CSP');
  t.equal(server.requests.length, fetches, 'viewing the dashboard fetched nothing from the app\'s host');
  t.ok(app.logoHash && srcs.includes(`/logos/${app.clientId}/${app.logoHash}`), 'the stored copy, by its hash');
});

t.test('a served logo: the bytes fetched, its type, nosniff, immutable by hash, a CSP that runs nothing', async (t) => {
  const app = await liveAppWithLogo(lanyard, `${server.origin}/logo.gif`);
  const res = await fetch(`${lanyard.url}/logos/${app.clientId}/${app.logoHash}`);
  t.equal(res.status, 200);
  t.ok(Buffer.from(await res.arrayBuffer()).equals(GIF_1X1), 'the bytes');
  t.equal(res.headers.get('content-type'), 'image/gif');
  t.equal(res.headers.get('x-content-type-options'), 'nosniff');
  t.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.match(res.headers.get('content-security-policy'), /^default-src 'none'; sandbox/);
  t.equal(res.headers.get('cross-origin-resource-policy'), 'same-origin');
  for (const path of [`/logos/${app.clientId}/${'0'.repeat(64)}`, `/logos/${app.clientId}/nothex`, `/logos/nope/${app.logoHash}`]) {
    t.equal((await fetch(`${lanyard.url}${path}`)).status, 404, `not found: ${path}`);
  }
});

t.test('the API: a logo is fetched when set, not again when unchanged; a refused one changes nothing, with a clear 400', async (t) => {
  const created = await call(ada.token, 'POST', '/apps', { name: 'Quest', logo_url: `${server.origin}/logo.png` });
  t.equal(created.status, 201);
  const id = created.json.client_id as string;
  t.match(created.json.logo_image, new RegExp(`^/logos/${id}/[0-9a-f]{64}$`), 'where Lanyard serves its copy');
  const first = created.json.logo_image as string;
  t.ok(Buffer.from(await (await fetch(`${lanyard.url}${first}`)).arrayBuffer()).equals(PNG_1X1), 'served');

  const before = server.requests.length;
  const same = await call(ada.token, 'PATCH', `/apps/${id}`, { name: 'Quest 2', logo_url: `${server.origin}/logo.png` });
  t.equal(same.status, 200);
  t.equal(same.json.logo_image, first, 'the same copy');
  t.equal(server.requests.length, before, 'an unchanged logo URL is not fetched again');

  for (const [url, reason] of [
    [`http://${LOGO_HOST}:${server.port}/logo.png`, /https/],
    [`${server.origin}/logo.svg`, /PNG, JPEG, GIF or WebP/],
    [`${server.origin}/big.png`, /larger than 256 KiB/],
    [`${server.origin}/redirect?to=${encodeURIComponent('https://169.254.169.254/latest/meta-data')}`, /private or local/],
    [`https://127.0.0.1:${server.port}/logo.png`, /private or local/],
    [`${server.origin}/missing.png`, /404/],
  ] as [string, RegExp][]) {
    const refused = await call(ada.token, 'PATCH', `/apps/${id}`, { name: 'Renamed', logo_url: url });
    t.equal(refused.status, 400, `refused: ${url}`);
    t.same(paths(refused.json), ['/logo_url'], 'the field named');
    t.match(refused.json.fields?.[0]?.message, reason, 'the reason');
    const now = (await call(ada.token, 'GET', `/apps/${id}`)).json;
    t.equal(now.name, 'Quest 2', 'the name sent with it did not change either');
    t.equal(now.logo_image, first, 'the logo is as it was');
  }

  const changed = await call(ada.token, 'PATCH', `/apps/${id}`, { logo_url: `${server.origin}/logo.gif` });
  t.equal(changed.status, 200);
  t.not(changed.json.logo_image, first, 'a changed logo is fetched again, under a new address');
  t.equal((await fetch(`${lanyard.url}${first}`)).status, 404, 'the old copy is gone');
  const history = (await call(ada.token, 'GET', `/apps/${id}/history`)).json;
  const events = Array.isArray(history) ? history : history.events;
  t.ok(JSON.stringify(events).includes('logo_sha256'), 'the history records the new copy');

  const cleared = await call(ada.token, 'PATCH', `/apps/${id}`, { logo_url: '' });
  t.equal(cleared.status, 200);
  t.notOk('logo_image' in cleared.json || 'logo_url' in cleared.json, 'cleared');
  t.equal((await fetch(`${lanyard.url}${changed.json.logo_image}`)).status, 404, 'and its copy deleted');
  t.ok(lanyard.logs.some((l) => l.includes('"event":"app.logo_refused"')), 'a refusal is logged');
});

t.test('the developer pages: a logo that cannot be fetched is refused on the form with its reason (400), and nothing saved', async (t) => {
  const dev = await createDeveloper(lanyard, { name: 'Page Dev', clock });
  const { csrf } = await formCsrf(dev.browser, `${lanyard.url}/developer/apps/new`);
  const bad = await dev.browser.post(`${lanyard.url}/developer/apps/new`, { csrf, name: 'Shady', description: '', homepage_url: '', logo_url: `${server.origin}/logo.svg` });
  t.equal(bad.status, 400);
  t.match(await bad.text(), /SVG and other types are not accepted/, 'the reason, on the page');
  t.equal((await lanyard.store.listMemberships(dev.id)).length, 0, 'no app registered');
  const good = await dev.browser.post(`${lanyard.url}/developer/apps/new`, { csrf, name: 'Fine', description: '', homepage_url: '', logo_url: `${server.origin}/logo.png` });
  t.equal(good.status, 303);
  const overview = await (await dev.browser.get(new URL(good.headers.get('location')!, lanyard.url))).text();
  t.match(overview, /<img src="\/logos\/app_[0-9a-f]+\/[0-9a-f]{64}"/, 'the overview shows Lanyard\'s copy');
});

t.test('production\'s fetcher refuses the loopback logo server: a logo on a private address is never stored', async (t) => {
  const apps = new AppService({ store: lanyard.store, clock, log: quiet }); // no policy: production's
  const before = server.requests.length;
  const refused = await apps.register(actorOf(ada.account), { name: 'Local', logoUrl: `https://localhost:${server.port}/logo.png` }).then(() => undefined, (err: unknown) => err);
  t.match(refused, { fields: [{ path: 'logo_url', message: /private or local address/ }] }, 'refused, with the reason');
  t.equal(server.requests.length, before, 'nothing asked of the server');
});

t.test('fuzz: malformed logo requests and logo URLs never get a 5xx', async (t) => {
  const created = await call(ada.token, 'POST', '/apps', { name: 'Fuzz' });
  const id = created.json.client_id as string;
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const junk = () => pick(['', '%', '%00', '..', '../..', 'a'.repeat(300), '\u202e', '%E2%80%AE', '%ff', '0'.repeat(64), 'f'.repeat(63), ';', '?x=1', '//', '%2F']);
  let count = 0;
  let fives = 0;
  for (let i = 0; i < 200; i += 1) {
    const res = await fetch(`${lanyard.url}/logos/${pick([id, junk()])}/${junk()}${pick(['', '.png', '/x'])}`, { method: pick(['GET', 'HEAD', 'POST']) });
    await res.arrayBuffer();
    count += 1;
    if (res.status >= 500) fives += 1;
  }
  const bodies = [
    { logo_url: 'https://' }, { logo_url: 'https://[::1' }, { logo_url: `https://${LOGO_HOST}:99999/x` }, { logo_url: 'https://0x7f.1/x' },
    { logo_url: 'https://2130706433/x' }, { logo_url: 'javascript:alert(1)' }, { logo_url: 'data:image/png;base64,AAAA' }, { logo_url: 42 },
    { logo_url: ['https://a.test'] }, { logo_url: 'https://\u0000/x' }, { logo_url: `${server.origin}/loop` }, { logo_url: `https://[::ffff:10.0.0.1]/x` },
  ];
  for (let i = 0; i < 100; i += 1) {
    const res = await call(ada.token, 'PATCH', `/apps/${id}`, pick(bodies));
    count += 1;
    if (res.status >= 500) fives += 1;
  }
  t.equal(fives, 0, `${count} malformed requests, no 5xx`);
  t.equal((await lanyard.store.findClient(id))?.logoHash, undefined, 'and no logo stored');
});
