import * as client from 'openid-client';
import type { BrowserContext, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { tapPicture } from '../helpers/emoji-keyboard.js';
import { checkAccessibility } from '../helpers/axe.js';
import { CHROMEBOOK } from '../helpers/browser-flow.js';
import { answerCallback, launchBrowser, openPage, screenshot } from '../helpers/browser.js';
import { lanyard as cli } from '../helpers/cli.js';
import { DEVELOPER_PASSWORD, freshTotpCode } from '../helpers/developer.js';
import { startPair } from '../helpers/instances.js';
import { authorizationRequest, DEMO_CLIENT, relyingParty } from '../helpers/relying-party.js';
import { TEACHER } from '../helpers/sign-in.js';

/**
 * The developer area end to end (docs/developer-area.md), in Chromium, on two instances of one store, as a developer and
 * a pupil would live it: an invitation made by `lanyard developers invite` is accepted; the developer turns on
 * two-step sign-in and signs in with it; registers an app, adds a callback URL and creates a secret; an
 * openid-client relying party with that secret signs in the sandbox school's emoji pupil (pictures read off
 * the sandbox page) and verifies the ID token; a second secret works beside the first; the first, revoked,
 * answers 401 invalid_client on the OTHER instance at once; default scopes without openid make a request
 * without scope end with no id_token; /oauth/logout follows a changed logout_url; the development app refuses
 * a real school's teacher until `lanyard apps approve` makes it live and `apps connect` gives it to the school. Every page: a screenshot and axe.
 */

const CALLBACK = DEMO_CLIENT.redirectUri;
const EMAIL = 'ada@reading-quest.example';

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();
const status = (page: Page) => page.getByRole('status').first().innerText();

/** The sign-in's callback in a new tab of `context` (same cookies): returns the URL the app received. */
async function visitForCallback(context: BrowserContext, url: string | URL, redirectUri = CALLBACK, act?: (page: Page) => Promise<void>) {
  const page = await context.newPage();
  const reached = await answerCallback(page, redirectUri);
  await page.goto(String(url));
  if (act) await act(page);
  const to = await reached();
  await page.close();
  return to;
}

/** A token-endpoint request with HTTP Basic client authentication, to one instance. */
async function tokenRequest(origin: string, clientId: string, secret: string, params: Record<string, string>) {
  const res = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(params),
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

t.test('an invited developer takes an app from registration to live, tested on the sandbox school', async (t: Test) => {
  const { a, b, shared } = await startPair(t, 'sqlite');
  const run = (args: string[]) => cli(args, shared.env);
  const browser = await launchBrowser(t);
  const { page, problems } = await openPage(t, browser, CHROMEBOOK);
  let n = 0;
  const look = async (label: string) => {
    await screenshot(page, `developer-area/${String(++n).padStart(2, '0')}-${label.replace(/\W+/g, '-')}`);
    await checkAccessibility(t, page, label);
  };

  // 1. The operator invites; the developer accepts and turns on two-step sign-in.
  const invite = await run(['developers', 'invite', EMAIL]);
  t.equal(invite.code, 0, invite.stderr);
  const link = /https?:\/\/\S+\/developer\/invitations\/\S+/.exec(invite.stdout)?.[0];
  t.ok(link, 'the command prints a link');
  await page.goto(link!);
  t.equal(await heading(page), 'Accept your invitation');
  await look('invitation');
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('Password', { exact: true }).fill(DEVELOPER_PASSWORD);
  await page.getByLabel('Password again').fill(DEVELOPER_PASSWORD);
  await page.getByRole('button', { name: 'Create my account' }).click();
  await page.waitForURL(/\/developer\/account$/);
  t.match(await status(page), /Welcome, Ada Lovelace/);
  await look('account');
  await page.getByLabel('Your password').fill(DEVELOPER_PASSWORD);
  await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  await page.waitForURL(/\/totp$/);
  await look('two-step set-up');
  const totpSecret = (await page.locator('#totp-secret').innerText()).replace(/\s/g, '');
  await page.getByLabel(/6-digit code/).fill(await freshTotpCode(totpSecret));
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await page.locator('#recovery-codes').waitFor();
  t.equal((await page.locator('#recovery-codes').innerText()).trim().split('\n').length, 10, 'ten recovery codes');
  await look('recovery codes');
  await page.getByRole('link', { name: 'Back to your account' }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(/\/developer\/sign-in/);
  t.match(await status(page), /signed out/);

  // 2. Signs in again, with the code.
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(DEVELOPER_PASSWORD);
  await look('sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/sign-in\/verify$/);
  await look('sign-in second step');
  await page.getByLabel('Code').fill(await freshTotpCode(totpSecret));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/developer$/);
  t.equal(await heading(page), 'Your apps');
  await look('apps');

  // 3. Registers an app, adds a callback URL, creates a secret (shown once).
  await page.getByRole('link', { name: 'Register an app' }).click();
  await page.getByLabel('Name').fill('Tables Trainer');
  await page.getByLabel('Description (optional)').fill('Times tables practice, five minutes a day.');
  await look('register');
  await page.getByRole('button', { name: 'Register the app' }).click();
  await page.waitForURL(/\/developer\/apps\/app_[0-9a-f]{32}$/);
  const clientId = /app_[0-9a-f]{32}/.exec(page.url())![0];
  await look('overview');
  await page.getByRole('navigation', { name: 'App settings' }).getByRole('link', { name: 'Credentials' }).click();
  await page.getByLabel('Add a callback URL').fill(CALLBACK);
  await page.getByRole('button', { name: 'Add callback URL' }).click();
  await page.waitForURL(/#callbacks$/);
  const createSecret = async (label: string) => {
    await page.getByLabel('Label').fill(label);
    await page.getByRole('button', { name: 'Create secret' }).click();
    await page.waitForURL(/#new-secret-box$/);
    return page.locator('#new-secret').innerText();
  };
  const first = await createSecret('Server 1');
  t.match(first, /^[A-Za-z0-9_-]{43}$/, '256 bits, shown once');
  await look('secret shown once');

  // 4. The sandbox page names the emoji pupil's pictures; a relying party with the secret signs that pupil in.
  await page.goto(`${a.url}/developer/sandbox`);
  const pictures = await page.getByRole('list', { name: /Emoji password of emoji-pupil/ }).locator('.sandbox-emoji-name').allInnerTexts();
  t.equal(pictures.length, 6, 'six pictures');
  await look('sandbox');
  const pupil = (await openPage(t, browser, CHROMEBOOK)).page.context(); // the pupil's own device
  const rp1 = await relyingParty(a.url, clientId, first);
  const req1 = await authorizationRequest(rp1);
  const callback1 = await visitForCallback(pupil, req1.url, CALLBACK, async (p) => {
    t.equal(await heading(p), 'Lanyard Sandbox School', 'a development app goes straight to the sandbox school');
    await p.getByRole('link', { name: /Emoji password/ }).click();
    await p.getByLabel('Your username').fill('emoji-pupil');
    for (const name of pictures) await tapPicture(p, name);
    await screenshot(p, 'developer-area/pupil-emoji');
    await checkAccessibility(t, p, 'the emoji keyboard, for a development app');
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
  });
  const tokens1 = await client.authorizationCodeGrant(rp1, callback1, {
    pkceCodeVerifier: req1.codeVerifier, expectedNonce: req1.nonce, expectedState: req1.state,
  });
  t.match(tokens1.claims(), { aud: clientId, given_name: 'Emil', type: 'student' }, 'the ID token, verified by openid-client');

  // 5. A second secret: both work.
  await page.goto(`${a.url}/developer/apps/${clientId}/credentials`);
  const second = await createSecret('Server 2');
  t.not(second, first);
  const rp2 = await relyingParty(a.url, clientId, second);
  const req2 = await authorizationRequest(rp2);
  const tokens2 = await client.authorizationCodeGrant(rp2, await visitForCallback(pupil, req2.url), {
    pkceCodeVerifier: req2.codeVerifier, expectedNonce: req2.nonce, expectedState: req2.state,
  });
  t.equal(tokens2.claims()!.given_name, 'Emil', 'the second secret exchanges a code (the pupil is still signed in)');
  const refreshWith = (origin: string, secret: string) => tokenRequest(origin, clientId, secret, { grant_type: 'refresh_token', refresh_token: tokens1.refresh_token! });
  t.equal((await refreshWith(b.origin, first)).status, 200, 'the first secret still works, on the other instance too');

  // 6. The first is revoked in the browser on A: B refuses it at once.
  await page.reload();
  await look('credentials with two secrets');
  await page.getByRole('link', { name: 'Revoke the secret Server 1' }).click();
  await look('revoke confirmation');
  await page.getByRole('button', { name: 'Revoke the secret' }).click();
  await page.waitForURL(/#secrets$/);
  const revoked = await refreshWith(b.origin, first);
  t.equal(revoked.status, 401, 'the revoked secret, on the other instance');
  t.equal(revoked.body.error, 'invalid_client');
  t.equal((await tokenRequest(b.origin, clientId, second, { grant_type: 'refresh_token', refresh_token: String(tokens2.refresh_token) })).status, 200,
    'the second secret goes on working');

  // 7. Default scopes: openid gives a request without scope an id_token; none gives none.
  const noScope = () => {
    const url = new URL('/oauth/authorize', a.url);
    url.search = new URLSearchParams({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', state: 'launch' }).toString();
    return visitForCallback(pupil, url);
  };
  const withDefaults = await noScope();
  const exchanged = await tokenRequest(a.origin, clientId, second, { grant_type: 'authorization_code', code: withDefaults.searchParams.get('code')!, redirect_uri: CALLBACK });
  t.equal(exchanged.status, 200);
  t.ok(exchanged.body.id_token, 'openid by default: an id_token');
  await page.goto(`${a.url}/developer/apps/${clientId}/scopes`);
  await look('default scopes');
  await page.getByRole('checkbox', { name: /openid/ }).uncheck();
  await page.getByRole('button', { name: 'Save default scopes' }).click();
  await page.waitForURL(/\/scopes$/);
  await look('no default scopes');
  const without = await noScope();
  t.equal(without.searchParams.get('code'), null, 'no code, so no id_token');
  t.equal(without.searchParams.get('error'), 'invalid_scope', 'refused as RFC 6749 §3.3 allows');
  t.equal(without.searchParams.get('state'), 'launch');

  // 8. The logout URL: /oauth/logout follows each change (in development, by a link on a "You are signed out" page).
  for (const logoutUrl of ['https://tables-trainer.example/signed-out', 'https://tables-trainer.example/goodbye']) {
    await page.goto(`${a.url}/developer/apps/${clientId}/logout-url`);
    await page.getByLabel(/^(Set a|Change the) logout URL/).fill(logoutUrl);
    await page.getByRole('button', { name: 'Save logout URL' }).click();
    await page.waitForURL(/\/logout-url$/);
    const to = await visitForCallback(pupil, `${b.origin}/oauth/logout?client_id=${clientId}`, logoutUrl, async (signedOut) => {
      await signedOut.getByRole('heading', { name: 'You are signed out' }).waitFor();
      await signedOut.getByRole('link', { name: 'Continue to tables-trainer.example' }).click();
    });
    t.equal(to.href, logoutUrl, `/oauth/logout on the other instance sends the browser to ${logoutUrl}`);
  }
  await look('logout URL');

  // 9. A real school's teacher is refused while the app is in development.
  const teacher = (await openPage(t, browser, CHROMEBOOK)).page;
  const realSchool = await authorizationRequest(rp1, { organisation: 'demo-school' });
  const refused = await teacher.goto(realSchool.url.href);
  t.equal(refused?.status(), 403);
  t.match(await teacher.locator('main').innerText(), /is still being made, and schools cannot use it yet/, 'in words a pupil understands');
  t.notMatch(await teacher.locator('main').innerText(), /sandbox|organisation=/, 'the developers\' part folded away');
  t.equal(await teacher.getByLabel('Password').count(), 0, 'no sign-in form');
  await screenshot(teacher, 'developer-area/real-school-refused');
  await teacher.getByText('For the app’s developers').click();
  t.match(await teacher.locator('main').innerText(), /still in development: only the sandbox school[^]*Error code: development_app/, 'and there for them');
  await screenshot(teacher, 'developer-area/real-school-refused-details');
  await checkAccessibility(t, teacher, 'a development app refused at a real school');

  // 10. Asks to go live; the operator approves and connects it to the Demo School; the teacher signs in.
  await page.goto(`${a.url}/developer/apps/${clientId}/go-live`);
  await look('go live');
  await page.getByRole('button', { name: 'Ask to go live' }).click();
  await page.waitForURL(/\/go-live$/);
  await look('waiting for review');
  const pending = await run(['apps', 'list', '--pending']);
  t.match(pending.stdout, clientId, '`apps list --pending` shows the request');
  const approved = await run(['apps', 'approve', clientId]);
  t.equal(approved.code, 0, approved.stderr);
  t.match(approved.stdout, /it is live now/);
  const connected = await run(['apps', 'connect', '--org', 'demo-school', clientId]);
  t.equal(connected.code, 0, connected.stderr);
  const rp = await relyingParty(a.url, clientId, second);
  const live = await authorizationRequest(rp, { organisation: 'demo-school' });
  const callback = await visitForCallback(teacher.context(), live.url, CALLBACK, async (p) => {
    await p.getByRole('link', { name: /Username and password/ }).click();
    await screenshot(p, 'developer-area/live-app-at-a-real-school');
    await checkAccessibility(t, p, 'a live app at a real school');
    await p.getByLabel('Username').fill(TEACHER.username);
    await p.getByLabel('Password').fill(TEACHER.password);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
  });
  const liveTokens = await client.authorizationCodeGrant(rp, callback, {
    pkceCodeVerifier: live.codeVerifier, expectedNonce: live.nonce, expectedState: live.state,
  });
  t.equal(liveTokens.claims()!.given_name, 'Tess', 'live: the Demo School teacher signs in');
  await page.goto(`${a.url}/developer/apps/${clientId}`);
  t.match(await page.locator('main').innerText(), /live/i);
  await look('live overview');
  await page.goto(`${a.url}/developer/apps/${clientId}/history`);
  const history = await page.locator('main').innerText();
  t.notOk(history.includes(first) || history.includes(second), 'the history never shows a secret');
  await look('history');
  t.same(problems, [], 'no console errors, CSP violations or failed loads');
});
