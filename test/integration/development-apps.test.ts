import * as client from 'openid-client';
import t, { type Test } from 'tap';
import { actorOf, OPERATOR } from '../../src/developer/actor.js';
import { sandboxCredentials, type SandboxUserCredentials } from '../../src/developer/sandbox.js';
import { BADGE_KID, followToCallback, postBadge, postEmoji } from '../helpers/children.js';
import { HttpBrowser, hiddenField, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { authorizationRequest, relyingParty } from '../helpers/relying-party.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { developmentApp, DEVELOPMENT_CALLBACK, type DevApp } from '../helpers/development-app.js';
import { writeConfig } from '../helpers/config-file.js';

/**
 * docs/developer-area.md: an app in development signs in only the sandbox school's users — by every method — and never
 * anyone else's, however it is asked (another school named, a session left by another app, a real school's
 * badge); once an operator approves it, it signs in every school's users.
 */

const CALLBACK = DEVELOPMENT_CALLBACK;

const authorizeUrl = (lanyard: Lanyard, clientId: string, extra: Record<string, string> = {}) => {
  const url = new URL('/oauth/authorize', lanyard.url);
  for (const [k, v] of Object.entries({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', nonce: 'n-dev', state: 's-dev', ...extra })) {
    url.searchParams.set(k, v);
  }
  return url;
};

/** The interaction the authorization request leads to (its uid), and the first page of it. */
async function startSignIn(browser: HttpBrowser, lanyard: Lanyard, url: URL) {
  const to = location(await browser.get(url), lanyard.url);
  if (!to.pathname.startsWith('/interaction/')) return { to, uid: undefined, page: '', status: 0 };
  const res = await browser.get(to);
  return { to, uid: to.pathname.split('/')[2]!, page: await res.text(), status: res.status };
}

const user = (users: SandboxUserCredentials[], username: string) => users.find((u) => u.username === username)!;

/** The openid-client relying party's code exchange: verifies the ID token (signature, iss, aud, nonce, state). */
async function exchange(t: Test, lanyard: Lanyard, app: DevApp, request: Awaited<ReturnType<typeof authorizationRequest>>, callback: URL) {
  const rp = await relyingParty(lanyard.url, app.clientId, app.secret);
  const tokens = await client.authorizationCodeGrant(rp, callback, {
    pkceCodeVerifier: request.codeVerifier, expectedNonce: request.nonce, expectedState: request.state,
  });
  const claims = tokens.claims()!;
  t.equal(claims.aud, app.clientId, 'the ID token is for the development app');
  return claims;
}

t.test('a development app signs in the sandbox school’s pupils: emoji password, badge, password', async (t) => {
  const lanyard = await startLanyard(t);
  const app = await developmentApp(lanyard);
  const sandbox = await sandboxCredentials(lanyard.store);
  const rp = await relyingParty(lanyard.url, app.clientId, app.secret);

  await t.test('emoji password, with no organisation named: straight to the sandbox school', async (t) => {
    const browser = new HttpBrowser();
    const request = await authorizationRequest(rp);
    const start = await startSignIn(browser, lanyard, request.url);
    t.equal(start.status, 200);
    t.match(start.page, /Lanyard Sandbox School/, 'the sandbox school, without a school picker');
    t.notMatch(start.page, /Find your school|Choose another school/, 'no other school is offered');
    const emoji = user(sandbox.users, 'emoji-pupil');
    const form = await (await browser.get(`${lanyard.url}/interaction/${start.uid}/emoji?org=sandbox`)).text();
    const res = await postEmoji(browser, lanyard.url, { uid: start.uid!, csrf: hiddenField(form, 'csrf'), org: 'sandbox' }, emoji.username, emoji.emoji!.map((e) => e.name));
    t.equal(res.status, 303, 'signed in');
    const callback = await followToCallback(browser, lanyard.url, res);
    t.equal(callback.origin + callback.pathname, CALLBACK);
    const claims = await exchange(t, lanyard, app, request, callback);
    t.equal(claims.sub, emoji.id, 'the emoji pupil');
    t.equal(claims.given_name, 'Emil');
    t.equal(claims.type, 'student');
  });

  await t.test('magic badge, organisation=sandbox', async (t) => {
    const browser = new HttpBrowser();
    const request = await authorizationRequest(rp, { organisation: 'sandbox' });
    const start = await startSignIn(browser, lanyard, request.url);
    const form = await (await browser.get(`${lanyard.url}/interaction/${start.uid}/badge?org=sandbox`)).text();
    const badge = user(sandbox.users, 'badge-pupil');
    t.match(badge.badge!.qrDataUrl, /^data:image\/png;base64,/, 'the badge comes with its QR code');
    const res = await postBadge(browser, lanyard.url, { uid: start.uid!, csrf: hiddenField(form, 'csrf'), org: 'sandbox' }, badge.badge!.code);
    t.equal(res.status, 303, 'signed in by badge');
    const claims = await exchange(t, lanyard, app, request, await followToCallback(browser, lanyard.url, res));
    t.equal(claims.sub, badge.id, 'the badge pupil');
  });

  await t.test('username and password: the pupil, the teacher and the admin', async (t) => {
    for (const username of ['password-pupil', 'teacher', 'admin']) {
      const u = user(sandbox.users, username);
      const request = await authorizationRequest(rp);
      const callback = await signIn(new HttpBrowser(), lanyard.url, request.url, { username, password: u.password!, organisation: 'sandbox' });
      const claims = await exchange(t, lanyard, app, request, callback);
      t.equal(claims.sub, u.id, username);
      t.equal(claims.type, u.type, `${username} is of type ${u.type}`);
    }
  });
});

t.test('a development app never signs in a real school’s user, and never issues a code for one', async (t) => {
  const lanyard = await startLanyard(t);
  const app = await developmentApp(lanyard);
  const noCode = (t: Test, res: Response) => {
    const to = res.headers.get('location');
    t.notOk(to && to.startsWith(CALLBACK) && new URL(to).searchParams.has('code'), 'no code for the app');
  };

  await t.test('organisation naming another school: a clear page, no sign-in form', async (t) => {
    const browser = new HttpBrowser();
    const start = await startSignIn(browser, lanyard, authorizeUrl(lanyard, app.clientId, { organisation: 'demo-school' }));
    t.equal(start.status, 403);
    t.match(start.page, /This app is still in development: only the sandbox school can sign in to it/);
    t.notMatch(start.page, /name="password"/);
    // The method screens say the same, and a posted password is never checked.
    const form = await browser.get(`${lanyard.url}/interaction/${start.uid}/password?org=demo-school`);
    t.equal(form.status, 403, 'the password screen is refused too');
    const post = await browser.post(`${lanyard.url}/interaction/${start.uid}/password`, {
      csrf: hiddenField(start.page, 'csrf'), org: 'demo-school', username: TEACHER.username, password: TEACHER.password,
    });
    t.equal(post.status, 403, 'a posted password of the real school is refused');
    noCode(t, post);
    // Going back to the app is the way on: it receives access_denied.
    const cancel = await browser.post(`${lanyard.url}/interaction/${start.uid}/cancel`, { csrf: hiddenField(start.page, 'csrf') });
    const back = await followToCallback(browser, lanyard.url, cancel);
    t.equal(back.searchParams.get('error'), 'access_denied');
  });

  await t.test('a school picked by hand is ignored: the sandbox school it is, where the real password fails', async (t) => {
    const browser = new HttpBrowser();
    const start = await startSignIn(browser, lanyard, authorizeUrl(lanyard, app.clientId));
    const page = await (await browser.get(`${lanyard.url}/interaction/${start.uid}/password?org=demo-school`)).text();
    t.match(page, /Lanyard Sandbox School/);
    const post = await browser.post(`${lanyard.url}/interaction/${start.uid}/password`, {
      csrf: hiddenField(page, 'csrf'), org: 'demo-school', username: TEACHER.username, password: TEACHER.password,
    });
    t.equal(post.status, 401, 'the Demo School teacher’s password is not a sandbox password');
    noCode(t, post);
  });

  await t.test('a real school’s badge does not work', async (t) => {
    const browser = new HttpBrowser();
    const start = await startSignIn(browser, lanyard, authorizeUrl(lanyard, app.clientId));
    const form = await (await browser.get(`${lanyard.url}/interaction/${start.uid}/badge?org=demo-school`)).text();
    const res = await postBadge(browser, lanyard.url, { uid: start.uid!, csrf: hiddenField(form, 'csrf'), org: 'demo-school' }, BADGE_KID.code);
    t.equal(res.status, 401, 'the Demo School badge is refused');
    t.match(await res.text(), /That badge did not work/);
    noCode(t, res);
  });

  await t.test('a session left by another app: asked to sign in again; prompt=none gets login_required', async (t) => {
    const browser = new HttpBrowser();
    const demo = await signIn(browser, lanyard.url, `${lanyard.url}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid&nonce=n&organisation=demo-school`, TEACHER);
    t.ok(demo.searchParams.get('code'), 'signed in to the Demo App as the Demo School teacher');

    const res = await browser.get(authorizeUrl(lanyard, app.clientId));
    noCode(t, res);
    t.match(location(res, lanyard.url).pathname, /^\/interaction\//, 'a sign-in is asked for, not a silent code');
    const page = await (await browser.get(location(res, lanyard.url))).text();
    t.match(page, /Lanyard Sandbox School/, 'for the sandbox school');

    const silent = await browser.get(authorizeUrl(lanyard, app.clientId, { prompt: 'none' }));
    const back = location(silent, lanyard.url);
    t.equal(back.origin + back.pathname, CALLBACK);
    t.equal(back.searchParams.get('error'), 'login_required', 'prompt=none: login_required');
    t.notOk(back.searchParams.has('code'));

    const named = await browser.get(authorizeUrl(lanyard, app.clientId, { organisation: 'demo-school' }));
    noCode(t, named);
    t.equal((await browser.get(location(named, lanyard.url))).status, 403, 'naming the session’s own school changes nothing');
  });

  await t.test('the refusals are logged, with no secret', async (t) => {
    const refusals = lanyard.logs.filter((l) => l.includes('"login.refused"'));
    t.ok(refusals.length >= 1, 'login.refused events');
    t.notOk(refusals.some((l) => l.includes(TEACHER.password)), 'no password in them');
  });
});

t.test('pending is still development; once approved, the app signs in the users of the schools that connect it', async (t) => {
  const lanyard = await startLanyard(t);
  const app = await developmentApp(lanyard);
  await app.service.requestLive(actorOf(app.owner), app.clientId);
  const pending = await startSignIn(new HttpBrowser(), lanyard, authorizeUrl(lanyard, app.clientId, { organisation: 'demo-school' }));
  t.equal(pending.status, 403, 'while waiting for review: the sandbox school only');

  // A browser signed in to the Demo School through another app, before the approval.
  const browser = new HttpBrowser();
  await signIn(browser, lanyard.url, `${lanyard.url}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid&nonce=n&organisation=demo-school`, TEACHER);

  await app.service.approve(OPERATOR, app.clientId);
  const rp = await relyingParty(lanyard.url, app.clientId, app.secret);
  const early = await authorizationRequest(rp, { organisation: 'demo-school' });
  const unconnected = await browser.get(early.url);
  t.match(unconnected.headers.get('location'), /\/interaction\//, 'live but not connected: no code from the session');
  const refusal = await browser.get(new URL(unconnected.headers.get('location')!, lanyard.url).href);
  t.equal(refusal.status, 403, 'the school does not use it (docs/dashboard-and-app-launch.md)');
  t.match(await refusal.text(), /not available at your school/);

  const demoSchool = (await lanyard.store.findOrganisation('demo-school'))!;
  await lanyard.store.putConnection({ organisationId: demoSchool.id, clientId: app.clientId, position: 0, source: 'operator', createdAt: new Date().toISOString() });
  const request = await authorizationRequest(rp, { organisation: 'demo-school' });
  const res = await browser.get(request.url);
  const callback = location(res, lanyard.url);
  t.ok(callback.searchParams.get('code'), 'the Demo School session now gets a code at once');
  const claims = await exchange(t, lanyard, app, request, callback);
  t.equal(claims.given_name, 'Tess', 'the Demo School teacher');

  const fresh = await authorizationRequest(rp);
  const pupil = await signIn(new HttpBrowser(), lanyard.url, fresh.url, { username: 'pupil', password: 'pupil-pass', organisation: 'demo-school' });
  t.equal((await exchange(t, lanyard, app, fresh, pupil)).given_name, 'Pip', 'a Demo School pupil, school picked by hand');
});

t.test('the sandbox school is never offered to pupils in the school picker', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const start = await startSignIn(browser, lanyard, new URL(`${lanyard.url}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid&nonce=n`));
  t.match(start.page, /Find your school/);
  const search = await (await browser.get(`${lanyard.url}/interaction/${start.uid}?q=school`)).text();
  t.match(search, /Demo School/);
  t.notMatch(search, /Sandbox/, 'a search never lists the sandbox school');
});

t.test('the sandbox school’s users (credentials every developer sees) never sign in to a live app', async (t) => {
  const lanyard = await startLanyard(t);
  const sandbox = await sandboxCredentials(lanyard.store);
  const teacher = user(sandbox.users, 'teacher');
  const emoji = user(sandbox.users, 'emoji-pupil');
  const demoApp = (extra: Record<string, string> = {}) => {
    const url = new URL('/oauth/authorize', lanyard.url);
    for (const [k, v] of Object.entries({ client_id: 'demo-app', redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', nonce: 'n-live', state: 's-live', ...extra })) {
      url.searchParams.set(k, v);
    }
    return url;
  };
  const noCode = (t: Test, res: Response) => {
    const to = res.headers.get('location');
    t.notOk(to && new URL(to, lanyard.url).searchParams.has('code'), 'no code');
  };

  await t.test('a live app naming the sandbox school: a clear page, no sign-in form', async (t) => {
    const start = await startSignIn(new HttpBrowser(), lanyard, demoApp({ organisation: 'sandbox' }));
    t.equal(start.status, 403);
    t.match(start.page, /The sandbox school is for testing apps in development/);
    t.notMatch(start.page, /name="password"/);
  });

  await t.test('picked by hand, or posted: back to the picker, the password never checked', async (t) => {
    const browser = new HttpBrowser();
    const start = await startSignIn(browser, lanyard, demoApp());
    t.match(start.page, /Find your school/);
    const picked = await browser.get(`${lanyard.url}/interaction/${start.uid}?org=sandbox`);
    t.equal(picked.status, 200);
    t.notMatch(await picked.text(), /Lanyard Sandbox School/, 'the picker again, not the sandbox school');
    const form = await browser.get(`${lanyard.url}/interaction/${start.uid}/password?org=sandbox`);
    t.equal(form.status, 303, 'the password screen sends the browser back to the picker');
    const real = await (await browser.get(`${lanyard.url}/interaction/${start.uid}/password?org=demo-school`)).text();
    const post = await browser.post(`${lanyard.url}/interaction/${start.uid}/password`, {
      csrf: hiddenField(real, 'csrf'), org: 'sandbox', username: teacher.username, password: teacher.password!,
    });
    t.equal(post.status, 303);
    t.match(location(post, lanyard.url).pathname, /^\/interaction\/[^/]+$/, 'back to the picker');
    noCode(t, post);
  });

  await t.test('a sandbox session from a development app: a live app asks for a sign-in; prompt=none gets login_required', async (t) => {
    const dev = await developmentApp(lanyard, { ownerId: 'dev_live_test', email: 'live@example.com', displayName: 'Liv', name: 'Sandbox Tester' });
    const browser = new HttpBrowser();
    const start = await startSignIn(browser, lanyard, authorizeUrl(lanyard, dev.clientId));
    const form = await (await browser.get(`${lanyard.url}/interaction/${start.uid}/emoji?org=sandbox`)).text();
    const signedIn = await postEmoji(browser, lanyard.url, { uid: start.uid!, csrf: hiddenField(form, 'csrf'), org: 'sandbox' }, emoji.username, emoji.emoji!.map((e) => e.name));
    t.ok((await followToCallback(browser, lanyard.url, signedIn)).searchParams.get('code'), 'signed in to the development app');

    const live = await browser.get(demoApp());
    noCode(t, live);
    t.match(location(live, lanyard.url).pathname, /^\/interaction\//, 'the live app asks for a sign-in');
    const silent = location(await browser.get(demoApp({ prompt: 'none' })), lanyard.url);
    t.equal(silent.searchParams.get('error'), 'login_required');
    t.notOk(silent.searchParams.has('code'));
  });

  await t.test('logged', async (t) => {
    t.ok(lanyard.logs.some((l) => l.includes('"login.refused"') && l.includes('"sandbox_school"')), 'login.refused with reason sandbox_school');
  });
});

t.test('an app not yet live: its logout_url is a link on a “You are signed out” page, not a redirect (no open redirect)', async (t) => {
  const lanyard = await startLanyard(t);
  const app = await developmentApp(lanyard);
  const logout = () => fetch(`${lanyard.url}/oauth/logout?client_id=${encodeURIComponent(app.clientId)}&state=s1`, { redirect: 'manual' });
  await app.service.setLogoutUrl(actorOf(app.owner), app.clientId, 'https://tables.example/bye');
  const page = await logout();
  t.equal(page.status, 200, 'in development: a page');
  t.equal(page.headers.get('location'), null, 'no redirect');
  t.equal(page.headers.get('cache-control'), 'no-store');
  const text = await page.text();
  t.match(text, /<h1>You are signed out<\/h1>/);
  t.match(text.replace(/<wbr>|<\/?span[^>]*>/g, ''), /href="https:\/\/tables\.example\/bye\?state=s1">Continue to tables\.example</, 'the app’s address, with its state, one click away');
  const ar = await (await fetch(`${lanyard.url}/oauth/logout?client_id=${encodeURIComponent(app.clientId)}`, { redirect: 'manual', headers: { 'accept-language': 'ar' } })).text();
  t.match(ar, /<html lang="ar" dir="rtl">[\s\S]*<h1>لقد خرجت<\/h1>/, 'in the pupil’s language');
  t.match(ar.replace(/<wbr>|<\/?span[^>]*>/g, ''), /href="https:\/\/tables\.example\/bye">تابع إلى \u2068tables\.example\u2069</, 'the way on too, its host isolated');
  t.notMatch(ar, /signed out|Continue to/, 'no English left');

  await app.service.setLogoutUrl(actorOf(app.owner), app.clientId, 'http://localhost:8080/signed-out');
  const local = await logout();
  t.equal(local.status, 303, 'a logout_url on the developer’s own machine: redirected at once');
  t.equal(local.headers.get('location'), 'http://localhost:8080/signed-out?state=s1');

  await app.service.setLogoutUrl(actorOf(app.owner), app.clientId, 'https://tables.example/bye');
  await app.service.requestLive(actorOf(app.owner), app.clientId);
  t.equal((await logout()).status, 200, 'waiting for review: still a page');
  await app.service.approve(OPERATOR, app.clientId);
  const live = await logout();
  t.equal(live.status, 303, 'live: redirected straight to its logout_url (SPEC)');
  t.equal(live.headers.get('location'), 'https://tables.example/bye?state=s1');
});

t.test('prompt=none tells a development app nothing about the visitor: the same answer whatever the session', async (t) => {
  const config = writeConfig((c) => {
    // Other School uses the Demo App too, so that its head has a session of their own.
    c.organisations!.push({ slug: 'other-school', name: 'Other School', apps: ['demo-app'], users: [{ username: 'head', password: 'head-pass', given_name: 'Hal', family_name: 'Head', type: 'employee' }] });
  });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const app = await developmentApp(lanyard);
  const sandbox = await sandboxCredentials(lanyard.store);
  const demoApp = (org: string) => `${lanyard.url}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid&nonce=n&organisation=${org}`;
  const visitors: [string, HttpBrowser][] = [['no session', new HttpBrowser()]];
  const demoTeacher = new HttpBrowser();
  t.ok((await signIn(demoTeacher, lanyard.url, demoApp('demo-school'), TEACHER)).searchParams.get('code'), 'a Demo School teacher signed in elsewhere');
  visitors.push(['a Demo School session', demoTeacher]);
  const otherHead = new HttpBrowser();
  t.ok((await signIn(otherHead, lanyard.url, demoApp('other-school'), { username: 'head', password: 'head-pass', organisation: 'other-school' })).searchParams.get('code'));
  visitors.push(['an Other School session', otherHead]);
  const sandboxTeacher = new HttpBrowser();
  const rp = await relyingParty(lanyard.url, app.clientId, app.secret);
  const teacher = user(sandbox.users, 'teacher');
  t.ok((await signIn(sandboxTeacher, lanyard.url, (await authorizationRequest(rp)).url, { username: 'teacher', password: teacher.password!, organisation: 'sandbox' })).searchParams.get('code'));
  visitors.push(['a sandbox session', sandboxTeacher]);

  for (const organisation of ['demo-school', 'other-school', 'no-such-school']) {
    const answers = new Set<string>();
    for (const [who, browser] of visitors) {
      const back = location(await browser.get(authorizeUrl(lanyard, app.clientId, { prompt: 'none', organisation })), lanyard.url);
      t.equal(back.origin + back.pathname, CALLBACK, `${organisation}, ${who}: back to the app`);
      t.notOk(back.searchParams.has('code'), `${organisation}, ${who}: no code`);
      answers.add(`${back.searchParams.get('error')}: ${back.searchParams.get('error_description')}`);
    }
    const expected = organisation === 'no-such-school' ? 'invalid_request: organisation is not known' : 'login_required: End-User authentication is required';
    t.same([...answers], [expected], `organisation=${organisation}: one answer for every visitor`);
  }
  const own = location(await sandboxTeacher.get(authorizeUrl(lanyard, app.clientId, { prompt: 'none', organisation: 'sandbox' })), lanyard.url);
  t.ok(own.searchParams.get('code'), 'the sandbox school itself: the sandbox session still gets its code silently');
});
