import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { signIn } from '../helpers/sign-in.js';
import { writeConfig } from '../helpers/config-file.js';

const CALLBACK = 'http://localhost:8080/callback';

const twoSchools = () => writeConfig((c) => {
  c.organisations!.push({
    slug: 'hill-academy',
    name: 'Hill Academy',
    apps: ['demo-app'], // both schools use the Demo App (the file lists it for each)
    users: [{ username: 'teacher', password: 'hill-pass-123', given_name: 'Hal', family_name: 'Hill', type: 'employee' }],
  });
});

const authorize = (issuer: string, extra: Record<string, string> = {}) => {
  const url = new URL(`${issuer}/oauth/authorize`);
  for (const [k, v] of Object.entries({ client_id: 'demo-app', redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', nonce: 'n', ...extra })) {
    url.searchParams.set(k, v);
  }
  return url;
};

async function idTokenClaims(issuer: string, callback: URL) {
  const res = await fetch(`${issuer}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: CALLBACK }),
  });
  const body = await res.json() as { id_token: string };
  return JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString()) as Record<string, string>;
}

t.test('without organisation: the picker searches schools by name', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: twoSchools() } });
  const browser = new HttpBrowser();
  const interaction = location(await browser.get(authorize(lanyard.url)), lanyard.url);
  const picker = await (await browser.get(interaction)).text();
  t.match(picker, /Find your school/);
  t.notMatch(picker, /name="password"/, 'no password field before a school is chosen');
  const search = new URL(interaction);
  search.searchParams.set('q', 'hill');
  const results = await (await browser.get(search)).text();
  t.match(results, /Hill Academy/);
  t.notMatch(results, /Demo School/, 'only matching schools');
  const none = new URL(interaction);
  none.searchParams.set('q', 'zzz-nothing');
  t.match(await (await browser.get(none)).text(), /No school matches/);
});

t.test('organisation by slug or id selects whose users can sign in', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: twoSchools() } });
  const hill = (await lanyard.store.findOrganisation('hill-academy'))!;

  const bySlug = await signIn(new HttpBrowser(), lanyard.url, authorize(lanyard.url, { organisation: 'hill-academy' }),
    { username: 'teacher', password: 'hill-pass-123' });
  t.equal((await idTokenClaims(lanyard.url, bySlug)).given_name, 'Hal', 'the Hill Academy teacher');

  const byId = await signIn(new HttpBrowser(), lanyard.url, authorize(lanyard.url, { organisation: hill.id }),
    { username: 'teacher', password: 'hill-pass-123' });
  t.equal((await idTokenClaims(lanyard.url, byId)).given_name, 'Hal', 'organisation given by its id');

  // The Demo School teacher's password is not valid at Hill Academy.
  const browser = new HttpBrowser();
  await t.rejects(signIn(browser, lanyard.url, authorize(lanyard.url, { organisation: 'hill-academy' }),
    { username: 'teacher', password: 'teacher-pass' }), /login failed with 401/);
});

t.test('a session at another organisation does not satisfy a request naming this one', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: twoSchools() } });
  const browser = new HttpBrowser();
  const demo = await signIn(browser, lanyard.url, authorize(lanyard.url, { organisation: 'demo-school' }),
    { username: 'teacher', password: 'teacher-pass' });
  t.equal((await idTokenClaims(lanyard.url, demo)).given_name, 'Tess');

  // Same organisation: the session is reused, no login screen.
  const same = location(await browser.get(authorize(lanyard.url, { organisation: 'demo-school' })), lanyard.url);
  t.equal(`${same.origin}${same.pathname}`, CALLBACK, 'same school: straight back to the app');

  // Another organisation: the login screen of that organisation.
  const other = location(await browser.get(authorize(lanyard.url, { organisation: 'hill-academy' })), lanyard.url);
  t.match(other.pathname, /^\/interaction\//, 'other school: must sign in');
  const page = await (await browser.get(other)).text();
  t.match(page, /Hill Academy/);
  t.match(page, /How do you sign in\?/, 'Hill Academy’s ways of signing in');
  const form = await (await browser.get(new URL(`${other.pathname}/password?org=hill-academy`, lanyard.url))).text();
  t.match(form, /name="password"/);
  t.notMatch(form, /Choose another school/, 'the app named the school, so it cannot be changed');

  // Hill's teacher signs in on the same browser: the old session is ended and the new one reaches the app.
  const hill = await signIn(browser, lanyard.url, authorize(lanyard.url, { organisation: 'hill-academy' }),
    { username: 'teacher', password: 'hill-pass-123' });
  t.equal(`${hill.origin}${hill.pathname}`, CALLBACK, 'the switch of user completes');
  t.equal((await idTokenClaims(lanyard.url, hill)).given_name, 'Hal', 'as the Hill Academy teacher');
});
