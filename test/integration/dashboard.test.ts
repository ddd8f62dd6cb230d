import t from 'tap';
import * as oidc from 'openid-client';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser, hiddenField, location } from '../helpers/http-browser.js';
import { signIn, TEACHER, PUPIL } from '../helpers/sign-in.js';
import { writeConfig } from '../helpers/config-file.js';
import { relyingParty } from '../helpers/relying-party.js';

/** The dashboard (docs/dashboard-and-app-launch.md) over HTTP: the front door, the remembered school, the dashboard, launches, connections. */

const CALLBACK = 'http://localhost:8080/callback';

/** The demo config plus: an app with initiate_login_uri, one whose defaults lack openid, one only Other School uses. */
const config = () => writeConfig((c) => {
  c.clients.push(
    { client_id: 'launcher', name: 'Reading Rocket', secrets: ['launcher-secret'], redirect_uris: ['https://launcher.example/cb'],
      default_scopes: ['openid'], initiate_login_uri: 'https://launcher.example/start?from=lanyard' },
    { client_id: 'api-only', name: 'Maths Map', secrets: ['api-only-secret'], redirect_uris: [CALLBACK], default_scopes: ['user:read'] },
    { client_id: 'staff-room', name: 'Staff Room', secrets: ['staff-room-secret'], redirect_uris: [CALLBACK], default_scopes: ['openid'] },
    { client_id: 'elsewhere', name: 'Elsewhere', secrets: ['elsewhere-secret'], redirect_uris: [CALLBACK], default_scopes: ['openid'] },
  );
  const demo = c.organisations!.find((o) => o.slug === 'demo-school')!;
  demo.apps = ['launcher', 'demo-app', 'api-only', { client_id: 'staff-room', user_types: ['employee'] }];
  c.organisations!.push({ slug: 'other-school', name: 'Other School', apps: ['elsewhere'] });
});

/** Signs in to the dashboard from `/`: picks the school, then the password screens; returns the dashboard page. */
async function signInAtHome(browser: HttpBrowser, url: string, who = TEACHER): Promise<string> {
  const start = await browser.get(`${url}/sign-in?org=${who.organisation}`);
  const done = await signIn(browser, url, location(start, url), who);
  t.equal(done.pathname, '/sign-in/done', 'the sign-in comes back to the dashboard');
  const back = await browser.get(done);
  t.equal(location(back, url).pathname, '/');
  const home = await browser.get(`${url}/`);
  t.equal(home.status, 200);
  return home.text();
}

const tiles = (page: string) => [...page.matchAll(/action="\/launch\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));

t.test('the front door: a school picker that never offers the sandbox, then the school\'s sign-in, then the dashboard', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const browser = new HttpBrowser();
  const first = await browser.get(`${lanyard.url}/`);
  t.equal(first.status, 200, 'no longer a JSON 404');
  t.equal(first.headers.get('cache-control'), 'no-store');
  t.match(await first.text(), /Find your school/);
  const search = await (await browser.get(`${lanyard.url}/?q=school`)).text();
  t.match(search, /href="\/sign-in\?org=demo-school"/);
  t.match(search, /Other School/);
  t.notMatch(search, /Sandbox/, 'the sandbox school is for developers');
  t.match(await (await browser.get(`${lanyard.url}/?q=zzz`)).text(), /No school matches/);

  const pick = await browser.get(`${lanyard.url}/sign-in?org=demo-school`);
  const demo = (await lanyard.store.findOrganisation('demo-school'))!;
  t.match(pick.headers.get('set-cookie'), new RegExp(`lanyard_school=${demo.id}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax`), 'the device remembers the school');
  const authorize = location(pick, lanyard.url);
  t.equal(authorize.pathname, '/oauth/authorize');
  t.equal(authorize.searchParams.get('client_id'), 'lanyard', 'Lanyard signs in through its own client, like any app');

  const page = await signInAtHome(browser, lanyard.url);
  t.match(page, /Hello, Tess/);
  t.match(page, /Demo School/);
  t.same(tiles(page), ['launcher', 'demo-app', 'api-only', 'staff-room'], 'the school\'s apps, in its order, for a teacher');
  t.notMatch(page, /Elsewhere/, 'another school\'s app is not here');
  t.match(page, /class="app-icon-letters">RR</, 'a generated icon from the name');
});

t.test('the dashboard shows a pupil only the apps for pupils; launching one that is not there is refused', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const browser = new HttpBrowser();
  const page = await signInAtHome(browser, lanyard.url, PUPIL);
  t.same(tiles(page), ['launcher', 'demo-app', 'api-only'], 'Staff Room is for employees only');
  const csrf = hiddenField(page, 'csrf');
  for (const id of ['staff-room', 'elsewhere', 'lanyard', 'nope']) {
    const res = await browser.post(`${lanyard.url}/launch/${id}`, { csrf });
    t.equal(res.status, 404, `${id}: not one of the pupil's apps`);
  }
});

t.test('the device remembers the school: the next visit goes straight to its sign-in, which offers another school', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const browser = new HttpBrowser();
  await signInAtHome(browser, lanyard.url);
  const signOut = await browser.post(`${lanyard.url}/sign-out`, { csrf: hiddenField(await (await browser.get(`${lanyard.url}/`)).text(), 'csrf') });
  t.equal(signOut.status, 303, 'signed out (303 after POST)');
  t.equal(location(signOut, lanyard.url).pathname, '/');

  const next = await browser.get(`${lanyard.url}/`);
  t.equal(next.status, 303, 'remembered: straight to signing in');
  const interaction = location(await browser.get(location(next, lanyard.url)), lanyard.url);
  const methods = await (await browser.get(interaction)).text();
  t.match(methods, /Demo School/, 'the remembered school\'s sign-in');
  t.notMatch(methods, /Find your school/);
  t.match(methods, /\?change=1">Not Demo School\? Choose another school/);
  const picker = await (await browser.get(`${interaction.href}?change=1`)).text();
  t.match(picker, /Find your school/, 'not your school: the picker');

  const forget = await browser.get(`${lanyard.url}/?change=1`);
  t.equal(forget.status, 200);
  t.match(await forget.text(), /Find your school/);
  t.notOk(browser.cookies.has('lanyard_school'), '"not your school?" forgets it');
});

t.test('a cancelled dashboard sign-in lands on the picker, not in a loop', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const browser = new HttpBrowser();
  const done = await browser.get(`${lanyard.url}/sign-in/done?error=access_denied&state=x`);
  t.equal(location(done, lanyard.url).href, `${lanyard.url}/?error=access_denied`);
  browser.cookies.set('lanyard_school', (await lanyard.store.findOrganisation('demo-school'))!.id);
  const page = await browser.get(location(done, lanyard.url));
  t.equal(page.status, 200);
  t.match(await page.text(), /You did not sign in/);
});

t.test('launch without initiate_login_uri: a code for the first callback URL, default scopes, no state or nonce', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const browser = new HttpBrowser();
  const page = await signInAtHome(browser, lanyard.url, PUPIL);
  const csrf = hiddenField(page, 'csrf');

  for (const [clientId, secret, idToken] of [['demo-app', 'demo-app-secret', true], ['api-only', 'api-only-secret', false]] as const) {
    const launch = await browser.post(`${lanyard.url}/launch/${clientId}`, { csrf });
    t.equal(launch.status, 303);
    const authorize = location(launch, lanyard.url);
    t.equal(authorize.pathname, '/oauth/authorize');
    t.same([...authorize.searchParams.keys()].sort(), ['client_id', 'redirect_uri', 'response_type'], 'no scope, state or nonce');
    const callback = location(await browser.get(authorize), lanyard.url);
    t.equal(`${callback.origin}${callback.pathname}`, CALLBACK, 'at once, to the first callback URL');
    t.notOk(callback.searchParams.has('state'));
    const rp = await relyingParty(lanyard.url, clientId, secret);
    const tokens = await oidc.authorizationCodeGrant(rp, callback);
    t.ok(tokens.access_token);
    t.equal(Boolean(tokens.id_token), idToken, `${clientId}: an id_token exactly when openid is a default scope`);
    if (idToken) {
      const claims = tokens.claims()!;
      t.equal(claims.given_name, 'Pip');
      t.notOk('nonce' in claims, 'no nonce');
    }
  }
  const launched = lanyard.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === 'app.launched');
  t.equal(launched.length, 2, 'each launch logged');
  t.match(launched[0], { clientId: 'demo-app', organisation: 'demo-school', via: 'code' });
  t.ok(typeof launched[0]!.accountId === 'string');
});

t.test('launch with initiate_login_uri: iss, login_hint and target_link_uri (OpenID Connect Core §4)', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const browser = new HttpBrowser();
  const page = await signInAtHome(browser, lanyard.url, PUPIL);
  const launch = await browser.post(`${lanyard.url}/launch/launcher`, { csrf: hiddenField(page, 'csrf') });
  const to = location(launch, lanyard.url);
  const pupil = (await lanyard.store.findUserByUsername((await lanyard.store.findOrganisation('demo-school'))!.id, 'pupil'))!;
  t.equal(`${to.origin}${to.pathname}`, 'https://launcher.example/start');
  t.equal(to.searchParams.get('from'), 'lanyard', 'the app\'s own query is kept');
  t.equal(to.searchParams.get('iss'), lanyard.url);
  t.equal(to.searchParams.get('login_hint'), pupil.id, 'the sub to come');
  t.equal(to.searchParams.get('target_link_uri'), 'https://launcher.example/');
});

t.test('launch and sign-out need the dashboard\'s form token and a session', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const browser = new HttpBrowser();
  const page = await signInAtHome(browser, lanyard.url);
  t.equal((await browser.post(`${lanyard.url}/launch/demo-app`, {})).status, 403, 'no token');
  t.equal((await browser.post(`${lanyard.url}/launch/demo-app`, { csrf: 'forged.token' })).status, 403, 'a forged token');
  t.equal((await browser.post(`${lanyard.url}/sign-out`, {})).status, 403);
  t.equal((await browser.get(`${lanyard.url}/`)).status, 200, 'still signed in');
  const stranger = new HttpBrowser();
  const res = await stranger.post(`${lanyard.url}/launch/demo-app`, { csrf: hiddenField(page, 'csrf') });
  t.equal(location(res, lanyard.url).pathname, '/', 'not signed in: back to the front door');
  // A token from an earlier session is worthless in the next.
  await browser.post(`${lanyard.url}/sign-out`, { csrf: hiddenField(page, 'csrf') });
  const again = await signInAtHome(browser, lanyard.url);
  t.not(hiddenField(again, 'csrf'), hiddenField(page, 'csrf'));
  t.equal((await browser.post(`${lanyard.url}/launch/demo-app`, { csrf: hiddenField(page, 'csrf') })).status, 403);
});

t.test('an app the school has not connected: a clear page, access_denied to the app, never a code', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const authorize = (extra = '') => `${lanyard.url}/oauth/authorize?client_id=elsewhere&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid&state=s1${extra}`;
  // Named school.
  const browser = new HttpBrowser();
  const start = location(await browser.get(authorize('&organisation=demo-school')), lanyard.url);
  const refused = await browser.get(start);
  t.equal(refused.status, 403);
  const page = await refused.text();
  t.match(page, /This app is not available at your school/);
  t.match(page, /Elsewhere is not one of the apps Demo School uses/);
  t.match(page, /not_connected/);
  const cancel = await browser.post(`${start.href}/cancel`, { csrf: hiddenField(page, 'csrf') });
  const back = location(await browser.get(location(cancel, lanyard.url)), lanyard.url);
  t.equal(`${back.origin}${back.pathname}`, CALLBACK);
  t.equal(back.searchParams.get('error'), 'access_denied');
  t.equal(back.searchParams.get('state'), 's1');
  t.notOk(back.searchParams.has('code'));

  // Signed in already (through another app): no code silently; with prompt=none, login_required.
  const signedIn = new HttpBrowser();
  await signIn(signedIn, lanyard.url, `${lanyard.url}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid`, PUPIL);
  const final = location(await signedIn.get(authorize('&prompt=none')), lanyard.url);
  t.equal(`${final.origin}${final.pathname}`, CALLBACK);
  t.equal(final.searchParams.get('error'), 'login_required');
  t.notOk(final.searchParams.has('code'));
  // Without prompt: the session's school, refused with the page.
  const interaction = location(await signedIn.get(authorize()), lanyard.url);
  const again = await signedIn.get(interaction);
  t.equal(again.status, 403, 'the signed-in user\'s school is the one asked');
  t.match(await again.text(), /not available at your school/);
});

t.test('a connection for some user types: others are refused when they sign in, after the password', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const browser = new HttpBrowser();
  const url = `${lanyard.url}/oauth/authorize?client_id=staff-room&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid&organisation=demo-school`;
  await t.rejects(signIn(browser, lanyard.url, url, PUPIL), /login failed with 403/, 'a pupil: refused, no code');
  const teacher = await signIn(new HttpBrowser(), lanyard.url, url, TEACHER);
  t.ok(teacher.searchParams.get('code'), 'a teacher: a code');
});

t.test('organisations[].apps naming no app stops startup with its JSON path', async (t) => {
  const bad = writeConfig((c) => { c.organisations![0]!.apps = ['demo-app', 'ghost-app']; });
  await t.rejects(startLanyard(t, { env: { LANYARD_CONFIG: bad } }), /\/organisations\/0\/apps\/1: no app "ghost-app"/);
  const twice = writeConfig((c) => { c.organisations![0]!.apps = ['demo-app', { client_id: 'demo-app', user_types: ['student'] }]; });
  await t.rejects(startLanyard(t, { env: { LANYARD_CONFIG: twice } }), /\/organisations\/0\/apps\/1: "demo-app" is listed twice/);
});

t.test('the file\'s connections follow the file from one start to the next', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const demo = (await lanyard.store.findOrganisation('demo-school'))!;
  t.same((await lanyard.store.listConnections(demo.id)).map((c) => [c.clientId, c.source, c.userTypes ?? null]),
    [['launcher', 'config', null], ['demo-app', 'config', null], ['api-only', 'config', null], ['staff-room', 'config', ['employee']]]);
  t.equal((await lanyard.store.findClient('elsewhere'))?.allOrganisations, undefined, 'listed by a school: only there');
  t.equal((await lanyard.store.findClient('demo-app'))?.allOrganisations, undefined);
  await lanyard.stop();
  const fewer = writeConfig((c) => {
    c.clients.push({ client_id: 'staff-room', name: 'Staff Room', secrets: ['staff-room-secret'], redirect_uris: [CALLBACK] });
    c.organisations![0]!.apps = ['staff-room'];
    c.config_apps = 'every_school';
  });
  const restarted = await startLanyard(t, { env: { LANYARD_CONFIG: fewer }, dir: lanyard.dir });
  t.same((await restarted.store.listConnections(demo.id)).map((c) => c.clientId), ['staff-room'], 'the rest removed');
  t.equal((await restarted.store.findClient('demo-app'))?.allOrganisations, true, 'listed by no school now, with config_apps every_school: every school');
});
