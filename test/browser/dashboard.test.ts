import t from 'tap';
import { tapPicture } from '../helpers/emoji-keyboard.js';
import type { Page } from 'playwright-core';
import * as client from 'openid-client';
import { checkAccessibility } from '../helpers/axe.js';
import { CHROMEBOOK, PHONE, TABLET } from '../helpers/browser-flow.js';
import { answerCallback, launchBrowser, openPage, screenshot, tabTo } from '../helpers/browser.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { EMOJI_KID } from '../helpers/children.js';
import { writeConfig } from '../helpers/config-file.js';
import { startLaunchApp } from '../helpers/launch-app.js';
import { startLanyard } from '../helpers/lanyard.js';
import { DEMO_CLIENT, relyingParty } from '../helpers/relying-party.js';

/**
 * The dashboard (docs/dashboard-and-app-launch.md), in Chromium: from `/` a pupil picks her school, signs in with her emoji password, sees only
 * the apps her school connected, and launches one of each kind; the school is remembered next time; an
 * app her school does not use is refused with access_denied. Screenshots and axe at three sizes.
 */

const CALLBACK = DEMO_CLIENT.redirectUri;

async function setUp() {
  const launcher = await startLaunchApp(t, 'reading-rocket', 'reading-rocket-secret');
  const config = writeConfig((c) => {
    c.clients.push(
      { client_id: 'reading-rocket', name: 'Reading Rocket', secrets: ['reading-rocket-secret'], redirect_uris: [`${launcher.base}/cb`],
        default_scopes: ['openid'], initiate_login_uri: `${launcher.base}/start` },
      { client_id: 'maths-map', name: 'Maths Map', secrets: ['maths-map-secret'], redirect_uris: [CALLBACK], default_scopes: ['user:read'] },
      { client_id: 'elsewhere', name: 'Elsewhere Art', secrets: ['elsewhere-secret'], redirect_uris: [CALLBACK], default_scopes: ['openid'] },
    );
    c.organisations!.find((o) => o.slug === 'demo-school')!.apps = ['reading-rocket', 'demo-app', 'maths-map'];
    c.organisations!.push({ slug: 'other-school', name: 'Other School', apps: ['elsewhere'] });
  });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  launcher.setIssuer(lanyard.url);
  return { lanyard, launcher, browser: await launchBrowser(t) };
}

/** The emoji keyboard: username, six pictures, Sign in. */
async function emojiSignIn(page: Page) {
  await page.getByRole('link', { name: /Emoji password/ }).click();
  await page.getByLabel('Your username').fill(EMOJI_KID.username);
  for (const name of EMOJI_KID.emoji) await tapPicture(page, name);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const tileNames = (page: Page) => page.locator('.app-tile-name').allInnerTexts();

t.test('a pupil: school, emoji password, her school\'s apps, a launch of each kind, and her school remembered', async (t) => {
  const { lanyard, launcher, browser } = await setUp();
  const { page } = await openPage(t, browser, CHROMEBOOK);

  await page.goto(`${lanyard.url}/`);
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Find your school', 'the front door');
  await checkAccessibility(t, page, 'home');
  await screenshot(page, 'dashboard/home-chromebook');
  await page.getByLabel('School name').fill('school');
  await page.getByRole('button', { name: 'Search' }).click();
  t.notOk(await page.getByRole('link', { name: /Sandbox/ }).count(), 'no sandbox school');
  await screenshot(page, 'dashboard/home-search');
  await page.getByRole('link', { name: 'Demo School' }).click();
  await page.getByText('How do you sign in?').waitFor();
  await emojiSignIn(page);
  await page.waitForURL(`${lanyard.url}/`);
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Hello, Emmy', 'the dashboard');
  t.same(await tileNames(page), ['Reading Rocket', 'Demo App', 'Maths Map'], 'only the apps Demo School connected, in its order');
  await checkAccessibility(t, page, 'dashboard');
  await screenshot(page, 'dashboard/dashboard-chromebook');

  // Keyboard: Tab reaches the first tile; Enter launches it (initiate_login_uri: the app signs in by itself, no prompt).
  const tile = await tabTo(page, /Reading Rocket/);
  t.match(tile.name, /Reading Rocket/, 'a tile is reachable by keyboard');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${launcher.base}/cb?**`);
  t.match(await page.locator('main').innerText(), /Signed in as Emmy/, 'the app completed its own sign-in silently');
  t.same(launcher.problems, []);
  t.equal(launcher.signIns.length, 1);
  t.equal(launcher.signIns[0]!.claims.sub, launcher.signIns[0]!.loginHint, 'login_hint was the user\'s sub');
  t.equal(launcher.signIns[0]!.targetLinkUri, `${launcher.base}/`);

  // Without initiate_login_uri: a code at the first callback; an id_token only with openid among the default scopes.
  for (const [name, clientId, secret, idToken] of [['Demo App', 'demo-app', 'demo-app-secret', true], ['Maths Map', 'maths-map', 'maths-map-secret', false]] as const) {
    await page.goto(`${lanyard.url}/`);
    const reached = await answerCallback(page, CALLBACK);
    await page.getByRole('button', { name: new RegExp(name) }).click();
    const callback = await reached();
    t.notOk(callback.searchParams.has('state'), `${name}: no state`);
    const tokens = await client.authorizationCodeGrant(await relyingParty(lanyard.url, clientId, secret), callback);
    t.equal(Boolean(tokens.id_token), idToken, `${name}: id_token ${idToken ? 'because' : 'absent: no'} openid in the default scopes`);
    const me = await fetch(`${lanyard.url}/api/user`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    t.equal(((await me.json()) as { given_name?: string }).given_name, 'Emmy', `${name}: the access token reads the user`);
    await page.context().newCDPSession(page).then((cdp) => cdp.send('Fetch.disable')).catch(() => {});
  }

  // Signed out, the next visit goes straight to Demo School's sign-in.
  await page.goto(`${lanyard.url}/`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/interaction\//);
  t.ok(await page.getByText('How do you sign in?').isVisible(), 'the school is remembered: its ways of signing in');
  t.ok(await page.getByRole('link', { name: /Not Demo School\? Choose another school/ }).isVisible(), 'with "not your school?"');
  t.ok(await page.getByText('Signing in to your school apps').isVisible(), 'what the sign-in is for, in words a pupil knows (not "Lanyard")');
  t.equal(await page.getByRole('button', { name: 'Cancel', exact: true }).count(), 1,
    'and a way out that promises nothing it cannot give (not "go back to your school apps": no one is signed in)');
  await screenshot(page, 'dashboard/remembered-school');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await page.waitForURL(/\?error=access_denied$/);
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Find your school', 'cancelled: back where she started');
  t.ok(await page.getByText('You did not sign in. Find your school to try again.').isVisible(), 'told what happened');
});

t.test('an app her school has not connected is refused, and the app gets access_denied', async (t) => {
  const { lanyard, browser } = await setUp();
  const { page } = await openPage(t, browser, CHROMEBOOK);
  const reached = await answerCallback(page, CALLBACK);
  await page.goto(`${lanyard.url}/oauth/authorize?client_id=elsewhere&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid&state=s9&organisation=demo-school`);
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'This app is not available at your school');
  await checkAccessibility(t, page, 'not available at your school');
  await screenshot(page, 'dashboard/not-connected');
  await page.getByRole('button', { name: 'Go back to Elsewhere Art' }).click();
  const back = await reached();
  t.equal(back.searchParams.get('error'), 'access_denied');
  t.equal(back.searchParams.get('state'), 's9');
  t.notOk(back.searchParams.has('code'), 'never a code');
});

t.test('home and dashboard at phone and tablet sizes: axe and screenshots, no sideways scrolling', async (t) => {
  const { lanyard, browser } = await setUp();
  for (const [size, options] of [['phone', PHONE], ['tablet', TABLET]] as const) {
    const { page } = await openPage(t, browser, options);
    await page.goto(`${lanyard.url}/`);
    await checkAccessibility(t, page, `home (${size})`);
    await screenshot(page, `dashboard/home-${size}`);
    await page.goto(`${lanyard.url}/sign-in?org=demo-school`);
    await emojiSignIn(page);
    await page.waitForURL(`${lanyard.url}/`);
    t.same(await tileNames(page), ['Reading Rocket', 'Demo App', 'Maths Map'], `${size}: the tiles`);
    await screenshotAndCheck(t, page, `dashboard/dashboard-${size}`, `dashboard (${size})`);
    const box = await page.locator('.app-tile').first().boundingBox();
    t.ok(box && box.height >= 120 && box.width >= 120, `${size}: tiles big enough for small fingers (${box?.width}×${box?.height})`);
  }
});
