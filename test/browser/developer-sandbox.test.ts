import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import type { FastifyReply } from 'fastify';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import t, { type Test } from 'tap';
import { systemClock } from '../../src/clock.js';
import { actorOf } from '../../src/developer/actor.js';
import { AppService } from '../../src/developer/app-service.js';
import { DeveloperAccounts } from '../../src/developer/developer-accounts.js';
import { ABSOLUTE_SECONDS, IDLE_SECONDS } from '../../src/developer/area.js';
import { AreaCookies } from '../../src/web/area/area-cookies.js';
import { AreaSessions } from '../../src/web/area/area-sessions.js';

/** The developer area's session cookie (src/web/area/signed-in-area.ts names it after the area). */
const SESSION_COOKIE = 'lanyard_developer';
import { checkAccessibility } from '../helpers/axe.js';
import { answerCallback, launchBrowser, openPage, pageWidths, screenshot, wordsBroken } from '../helpers/browser.js';
import { jsQR } from '../helpers/badge-pdf.js';
import { writeQrVideo } from '../helpers/fake-camera.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { authorizationRequest, DEMO_CLIENT, relyingParty } from '../helpers/relying-party.js';

/**
 * The developer area's sandbox page (docs/developer-area.md): the sandbox school's test users and their credentials —
 * the emoji password as pictures, the badge as a QR code a camera reads — at phone, tablet and desktop
 * widths, with screenshots and axe; and the QR code on the page, shown to a camera, signs the badge pupil
 * in to a development app.
 */

const WIDTHS = [
  { name: 'phone', viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  { name: 'tablet', viewport: { width: 768, height: 1024 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1366, height: 900 } },
] as const;

const EMAIL = 'dev@example.com';
const PASSWORD = 'a long developer passphrase 42';


async function setUp(t: Test) {
  const lanyard = await startLanyard(t);
  const deps = { store: lanyard.store, clock: systemClock, log: lanyard.app.log, keyEncryptionKey: Buffer.alloc(32) };
  const developer = await new DeveloperAccounts(deps).create({ email: EMAIL, displayName: 'Dee Veloper', password: PASSWORD }, { how: 'sign-up' });
  const apps = new AppService(deps);
  const app = await apps.register(actorOf(developer), { name: 'Tables Trainer' });
  await apps.addCallback(actorOf(developer), app.clientId, DEMO_CLIENT.redirectUri);
  const { secret } = await apps.createSecret(actorOf(developer), app.clientId, { label: 'test' });
  return { lanyard, clientId: app.clientId, secret };
}

/**
 * A developer session for the page's browser context, started by the developer area's own session service
 * (the cookie it sets is handed to the browser, as a sign-in would), then the sandbox page.
 */
async function openSandboxPage(page: Page, lanyard: Lanyard) {
  const developer = (await lanyard.store.findDeveloperByEmail(EMAIL))!;
  const cookies: string[] = [];
  const reply = { raw: { appendHeader: (_name: string, value: string) => { cookies.push(value); } } } as unknown as FastifyReply;
  const sessions = new AreaSessions(
    { store: lanyard.store, clock: systemClock, cookies: new AreaCookies({ path: '/developer', secure: false }), account: (id) => lanyard.store.findDeveloper(id) },
    { cookie: SESSION_COOKIE, model: 'DeveloperSession', idleSeconds: IDLE_SECONDS, absoluteSeconds: ABSOLUTE_SECONDS },
  );
  await sessions.start(reply, developer);
  const [pair] = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!.split(';', 1);
  const value = pair!.slice(SESSION_COOKIE.length + 1);
  await page.context().addCookies([{ name: SESSION_COOKIE, value, url: `${lanyard.url}/developer`, httpOnly: true, sameSite: 'Lax' }]);
  await page.goto(`${lanyard.url}/developer/sandbox`);
}

/** The QR code of an <img> data URL, decoded as a camera would. */
function decodeQr(dataUrl: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

t.test('the sandbox page at phone, tablet and desktop widths', async (t) => {
  const { lanyard } = await setUp(t);
  const browser = await launchBrowser(t);
  for (const width of WIDTHS) {
    await t.test(width.name, async (t) => {
      const { name, ...context } = width;
      const { page, problems } = await openPage(t, browser, context);
      const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/developer/sandbox' && r.request().method() === 'GET');
      await openSandboxPage(page, lanyard);
      const res = await answer;
      t.equal(res.headers()['cache-control'], 'no-store', 'never cached');
      t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Sandbox school');
      t.equal(await page.title(), 'Sandbox school · Lanyard');
      t.ok(await page.getByText('sandbox', { exact: true }).first().isVisible(), 'the school’s slug');
      for (const role of ['Teacher', 'Pupil with an emoji password', 'Pupil with a badge', 'Pupil with a password', 'School admin']) {
        t.ok(await page.getByRole('heading', { name: role, level: 3 }).isVisible(), `${role}: shown`);
      }
      const emoji = page.getByRole('list', { name: /Emoji password of emoji-pupil/ }).getByRole('listitem');
      t.equal(await emoji.count(), 6, 'six pictures, in order, each with its name');
      const qr = page.getByRole('img', { name: /magic badge/ });
      t.ok(await qr.isVisible(), 'the badge as a QR code');
      const box = (await qr.boundingBox())!;
      t.ok(box.width >= 180 && box.x >= 0 && box.x + box.width <= width.viewport.width, `the QR code is large and fits the screen (${Math.round(box.width)} px)`);
      t.ok(await page.getByRole('link', { name: 'Test sign-in to Tables Trainer' }).isVisible(), 'a ready-made test link for the developer’s app');
      t.same(await wordsBroken(page, '.sandbox-try code', { afterHyphen: false }), [], 'the callback URL it returns to breaks after a slash only (not "cal|lback")');
      const widths = await pageWidths(page);
      t.ok(widths.page <= widths.device, `nothing wider than the screen (${widths.page} ≤ ${widths.device}px)`);
      await screenshot(page, `developer-sandbox/sandbox-${name}-${width.viewport.width}`);
      await checkAccessibility(t, page, `sandbox page, ${name}`);
      t.same(problems, [], 'no console errors, no failed resources (CSP included)');
    });
  }
});

t.test('signed out: the sandbox page asks to sign in first', async (t) => {
  const lanyard = await startLanyard(t);
  const res = await fetch(`${lanyard.url}/developer/sandbox`, { redirect: 'manual' });
  t.equal(res.status, 303);
  t.match(res.headers.get('location'), /^\/developer\/sign-in\?next=%2Fdeveloper%2Fsandbox$/);
});

t.test('the QR code on the page, held up to a camera, signs the badge pupil in to a development app', async (t) => {
  const { lanyard, clientId, secret } = await setUp(t);
  const first = await launchBrowser(t);
  const { page } = await openPage(t, first, { viewport: { width: 1366, height: 900 } });
  await openSandboxPage(page, lanyard);
  const payload = decodeQr((await page.getByRole('img', { name: /magic badge/ }).getAttribute('src'))!);
  const shownCode = await page.locator('#badge-badge-pupil').innerText();
  t.equal(payload, `LB1:${shownCode.replace(/-/g, '')}`, 'the QR code holds the badge code shown under it');

  const dir = mkdtempSync(join(tmpdir(), 'lanyard-camera-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const camera = await launchBrowser(t, { fakeCameraFile: writeQrVideo(payload!, dir) });
  const rp = await relyingParty(lanyard.url, clientId, secret);
  const req = await authorizationRequest(rp);
  const { page: phone } = await openPage(t, camera, { viewport: { width: 768, height: 1024 } });
  const callback = await answerCallback(phone, DEMO_CLIENT.redirectUri);
  await phone.goto(req.url.href);
  t.equal(await phone.getByRole('heading', { level: 1 }).innerText(), 'Lanyard Sandbox School', 'a development app goes straight to the sandbox school');
  const interaction = new URL(phone.url());
  await phone.context().grantPermissions(['camera'], { origin: interaction.origin });
  await phone.getByRole('link', { name: /Magic badge/ }).click();
  const tokens = await client.authorizationCodeGrant(rp, await callback(30_000), {
    expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier,
  });
  t.equal(tokens.claims()!.given_name, 'Bea', 'the badge pupil, signed in by camera');
  t.equal(tokens.claims()!.aud, clientId);
});
