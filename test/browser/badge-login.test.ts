import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { tapPicture } from '../helpers/emoji-keyboard.js';
import * as client from 'openid-client';
import type { Browser, BrowserContextOptions, Page, Response } from 'playwright-core';
import QRCode from 'qrcode';
import { checkAccessibility } from '../helpers/axe.js';
import { assertSignedIn, browserSetUp, DESKTOP, PHONE, TABLET } from '../helpers/browser-flow.js';
import { answerCallback, focused, launchBrowser, openPage, screenshot } from '../helpers/browser.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { BADGE_KID, EMOJI_KID } from '../helpers/children.js';
import { writeConfig } from '../helpers/config-file.js';
import { QR_VIDEO_DEFAULTS, writeQrVideo } from '../helpers/fake-camera.js';
import { startLanyard } from '../helpers/lanyard.js';
import { authorizationRequest, DEMO_CLIENT, relyingParty } from '../helpers/relying-party.js';

/** What the badge's QR code holds: the prefix and the code without dashes (src/formats/badge-code.ts). */
const BADGE_KID_QR = `LB1:${BADGE_KID.code.replace(/-/g, '')}`;
/** The status without a camera at all (Chromium here has none unless given a fake one). */
const NO_CAMERA = 'There is no camera here.';
/** With no camera, the photo button opens a file chooser: it offers to choose a photo ("Or choose…", after the code). */
const CHOOSE_PHOTO = 'Choose a photo of your badge';
/** The code field: "Or type the code…" under a camera or a photo button, "Type the code…" first where there is no camera. */
const codeField = (page: Page) => page.getByLabel(/^(Or t|T)ype the code under the picture$/);
const DID_NOT_WORK = 'That badge did not work. Try again, or ask your teacher.';



interface ScreenOptions {
  context?: BrowserContextOptions;
  /** Grant the camera to Lanyard's origin (the fake camera plays without asking anyway). */
  camera?: boolean;
  /** Runs once the page exists, before the badge screen loads (the scanner may post at once). */
  prepare?: (page: Page) => Promise<unknown>;
}

/** A new sign-in in a new browser context: authorize → the interaction → the badge screen of Demo School. */
async function openBadgeScreen(t: Test, browser: Browser, rp: client.Configuration, o: ScreenOptions = {}) {
  const req = await authorizationRequest(rp);
  const { page, problems } = await openPage(t, browser, o.context ?? DESKTOP);
  const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);
  await page.goto(req.url.href);
  const interaction = new URL(page.url());
  if (o.camera) await page.context().grantPermissions(['camera'], { origin: interaction.origin });
  await o.prepare?.(page);
  await page.goto(`${interaction.origin}${interaction.pathname}/badge?org=demo-school`);
  return { req, page, problems, callback };
}

const scannerStatus = (page: Page) => page.locator('[data-scanner-status]');
const badgePost = (page: Page) => page.waitForResponse((r) => r.url().endsWith('/badge') && r.request().method() === 'POST', { timeout: 30_000 });

t.test('magic badge by camera: the QR code held up to the camera signs Bex in by itself', async (t) => {
  const { rp, browser } = await browserSetUp(t, { qr: BADGE_KID_QR });
  const posts: Response[] = [];
  const { req, page, problems, callback } = await openBadgeScreen(t, browser, rp, {
    camera: true,
    // The scanner's submit is held until the test has seen the screen as the child does when the badge is read.
    prepare: (page) => page.addInitScript(`{
      const submit = HTMLFormElement.prototype.requestSubmit;
      HTMLFormElement.prototype.requestSubmit = function () { window.__lanyardSubmit = () => submit.call(this); };
    }`),
  });
  page.on('response', (r) => { if (r.url().endsWith('/badge') && r.request().method() === 'POST') posts.push(r); });
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Demo School');
  t.ok(await page.getByText('Show your badge to the camera').isVisible(), 'the prompt');
  await t.resolves(scannerStatus(page).getByText('Badge found! Signing you in…').waitFor({ timeout: 30_000 }),
    'the scanner reads the badge from the camera and says so');
  t.equal(await page.getByLabel('Or type the code under the picture').inputValue(), BADGE_KID.code, 'the code read from the camera is in the form, as printed on the badge');
  await screenshot(page, 'badge-login/01-camera-badge-found');
  await checkAccessibility(t, page, 'badge screen with the camera');
  await page.evaluate('window.__lanyardSubmit()');
  await assertSignedIn(t, rp, req, await callback(30_000), { givenName: 'Bex', type: 'student' });
  t.equal(posts.length, 1, 'one post');
  t.equal(posts[0]!.request().postDataJSON().code, BADGE_KID.code, 'of the code the QR payload carries');
  t.equal(posts[0]!.status(), 303, 'accepted');
  t.same(problems, [], 'no console errors');
});

t.test('no camera: the screen says so, and the code typed from the badge signs in', async (t) => {
  const { rp, browser } = await browserSetUp(t);
  const { req, page, problems, callback } = await openBadgeScreen(t, browser, rp);
  await t.resolves(scannerStatus(page).getByText(NO_CAMERA).waitFor(), 'the status says there is no camera');
  t.notOk(await page.locator('[data-scanner-video]').isVisible(), 'no empty camera picture');
  t.equal(await page.locator('.prompt').innerText(), 'Type the code on your badge, or choose a photo of it', 'the prompt no longer asks for the camera');
  t.ok(await page.getByLabel(CHOOSE_PHOTO).isVisible(), 'a photo may be chosen (a file chooser: there is no camera to take one)');
  t.ok(await page.getByLabel('Type the code under the picture', { exact: true }).isVisible(), 'the code field asks first, not "Or type…"');
  const field = (await codeField(page).boundingBox())!;
  const chooser = (await page.locator('.photo-button').boundingBox())!;
  t.ok(field.y < chooser.y, 'as the prompt says: the code field comes first, the photo button after it');
  t.match(await focused(page), { tag: 'input', name: 'Type the code under the picture' }, 'the code field has focus, ready to type');
  t.equal(await page.locator('[data-badge-form] ~ [data-upload]').count(), 1, 'in the page\'s order too (keyboard and screen readers)');
  t.equal(await page.getByText('Take a photo', { exact: false }).count(), 0, 'nothing offers to take a photo');
  await screenshot(page, 'badge-login/02-no-camera-typed-code');
  await checkAccessibility(t, page, 'badge screen without a camera');

  await codeField(page).fill('BADG-EDEM-0000-0000-0000-0000-02');
  const [wrong] = await Promise.all([badgePost(page), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  t.equal(wrong.status(), 401, 'a mistyped code: 401');
  await page.waitForLoadState();
  t.equal(await page.getByRole('alert').innerText(), DID_NOT_WORK, 'a generic message, as an alert');

  // As a child types it: lower case, spaces for dashes.
  await codeField(page).fill(BADGE_KID.code.toLowerCase().replace(/-/g, ' '));
  await page.keyboard.press('Enter');
  await assertSignedIn(t, rp, req, await callback(), { givenName: 'Bex', type: 'student' });
  t.same(problems, [], 'no console errors');
});

t.test('a camera this page may not use (refused): it says so, and offers to take a photo or type the code', async (t) => {
  const { rp, browser } = await browserSetUp(t, { qr: BADGE_KID_QR, cameraRefused: true });
  const { page, problems } = await openBadgeScreen(t, browser, rp, { context: PHONE });
  await t.resolves(scannerStatus(page).getByText('The camera cannot scan on this page.').waitFor(), 'the status says why there is no picture');
  t.notOk(await page.locator('[data-scanner-video]').isVisible(), 'no empty camera picture');
  t.equal(await page.locator('.prompt').innerText(), 'Take a photo of your badge, or type its code', 'the prompt asks for a photo or the code');
  t.ok(await page.getByLabel('Take a photo of your badge').isVisible(), 'the photo button opens the camera app, which still takes one');
  await screenshotAndCheck(t, page, 'badge-login/phone-02-camera-refused', 'badge screen, camera refused, on a phone');
  t.same(problems, [], 'no console errors');
});

t.test('on a phone without a camera: the photo button and the code fit the screen', async (t) => {
  const { rp, browser } = await browserSetUp(t);
  const { page, problems } = await openBadgeScreen(t, browser, rp, { context: PHONE });
  await scannerStatus(page).getByText(NO_CAMERA).waitFor();
  const widths = await screenshotAndCheck(t, page, 'badge-login/phone-01-no-camera', 'badge screen on a phone');
  const photo = (await page.locator('.photo-button').boundingBox())!;
  t.ok(photo.height >= 44 && photo.x + photo.width <= widths.device, `the photo button: ${Math.round(photo.width)}x${Math.round(photo.height)}px, on the screen`);
  t.same(problems, [], 'no console errors');
});

t.test('a photo of the badge: decoded in the page, signs in', async (t) => {
  const { rp, browser } = await browserSetUp(t);
  const { req, page, problems, callback } = await openBadgeScreen(t, browser, rp, { context: TABLET });
  await scannerStatus(page).getByText(NO_CAMERA).waitFor();
  await screenshot(page, 'badge-login/tablet-01-no-camera');
  const png = await QRCode.toBuffer(BADGE_KID_QR, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 });
  const [res] = await Promise.all([
    badgePost(page),
    page.getByLabel(CHOOSE_PHOTO).setInputFiles({ name: 'badge.png', mimeType: 'image/png', buffer: png }),
  ]);
  t.equal(res.request().postDataJSON().code, BADGE_KID.code, 'the code read from the photo is posted, as printed');
  await assertSignedIn(t, rp, req, await callback(), { givenName: 'Bex', type: 'student' });
  t.same(problems, [], 'no console errors');
});

t.test('a photo without a badge in it: says so, nothing posted', async (t) => {
  const { rp, browser } = await browserSetUp(t);
  const { page, problems } = await openBadgeScreen(t, browser, rp);
  let posts = 0;
  page.on('request', (r) => { if (r.method() === 'POST') posts += 1; });
  const png = await QRCode.toBuffer('https://example.com/not-a-badge', { type: 'png' });
  await page.getByLabel(CHOOSE_PHOTO).setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: png });
  await t.resolves(scannerStatus(page).getByText('No badge found in that photo. Try again, closer and with more light.').waitFor());
  t.equal(posts, 0, 'no post');
  t.same(problems, [], 'no console errors');
});

/** The badge at the camera, then away for `awayFrames` frames (30 a second), looping. */
function blinkingBadgeVideo(t: Test, dir: string, payload: string, awayFrames: number): string {
  const file = writeQrVideo(payload, dir, { frames: 15 });
  const data = readFileSync(file);
  const header = data.subarray(0, data.indexOf(0x0a) + 1);
  const frame = data.subarray(header.length, header.length + (data.length - header.length) / 15);
  const { width, height } = QR_VIDEO_DEFAULTS;
  const blank = Buffer.concat([Buffer.from('FRAME\n', 'latin1'), Buffer.alloc(width * height, 235), Buffer.alloc(width * height / 2, 128)]);
  t.equal(blank.length, frame.length, 'blank frames are frames');
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: 15 }, () => frame), ...Array.from({ length: awayFrames }, () => blank)]));
  return file;
}

t.test('a revoked badge: "did not work", by camera (without posting it again and again) and typed', async (t) => {
  const { lanyard, rp, browser } = await browserSetUp(t, { qr: BADGE_KID_QR });
  const demo = (await lanyard.store.findOrganisation('demo-school'))!;
  t.equal(await lanyard.store.revokeBadges({ organisationId: demo.id }), 1, 'the school revokes its badges');

  const statuses: number[] = [];
  const { page, problems } = await openBadgeScreen(t, browser, rp, {
    camera: true,
    prepare: async (page) => page.on('response', (r) => {
      if (r.url().endsWith('/badge') && r.request().method() === 'POST') statuses.push(r.status());
    }),
  });
  await page.getByRole('alert').waitFor({ timeout: 30_000 });
  t.equal(await page.getByRole('alert').innerText(), DID_NOT_WORK, 'refused, with the generic message');
  await t.resolves(scannerStatus(page).getByText('Take your badge away from the camera, then show it again.', { exact: true })
    .waitFor(), 'the badge still at the camera: asked to take it away');
  const told = ((await page.locator('main').innerText()).match(/ask your teacher/gi) ?? []).length;
  t.equal(told, 1, 'the page says "ask your teacher" once, not in the alert and again under the camera');
  await page.waitForTimeout(2000); // ~13 more frames scanned
  t.same(statuses, [401], 'posted once, not again and again while the badge stays in front of the camera');
  await screenshot(page, 'badge-login/03-revoked-badge-camera');
  await checkAccessibility(t, page, 'badge screen with an error');

  await codeField(page).fill(BADGE_KID.code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForLoadState();
  t.same(statuses, [401, 401], 'typed: refused too');
  t.equal(await page.getByRole('alert').innerText(), DID_NOT_WORK);
  t.same(problems, [], 'no console errors');
});

t.test('a refused badge shown to the camera again (taken away, then back) is tried again', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-camera-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lanyard = await startLanyard(t);
  const rp = await relyingParty(lanyard.url);
  const browser = await launchBrowser(t, { fakeCameraFile: blinkingBadgeVideo(t, dir, 'LB1:ZZZZZZZZZZZZZZZZZZZZZZZZZZ', 75) });
  const statuses: number[] = [];
  const { page, problems } = await openBadgeScreen(t, browser, rp, {
    camera: true,
    prepare: async (page) => page.on('response', (r) => {
      if (r.url().endsWith('/badge') && r.request().method() === 'POST') statuses.push(r.status());
    }),
  });
  const start = Date.now();
  while (statuses.length < 2 && Date.now() - start < 15_000) await page.waitForTimeout(100);
  const seconds = (Date.now() - start) / 1000;
  t.same(statuses, [401, 401], `shown twice: posted twice (in ${seconds.toFixed(1)} s)`);
  t.ok(seconds > 1.5, 'not before the badge was away for a moment');
  t.same(problems, [], 'no console errors');
});

t.test('badge + emoji (an organisation that asks for both): the second step, then signed in', async (t) => {
  const config = writeConfig((c) => {
    const org = c.organisations![0]!;
    org.badge_requires_emoji = true;
    org.users!.find((u) => u.username === 'emoji-kid')!.badge_code = 'EEEE-EEEE-EEEE-EEEE-EEEE-EEEE-EE';
  });
  const { rp, browser } = await browserSetUp(t, { config });
  const { req, page, problems, callback } = await openBadgeScreen(t, browser, rp);
  await codeField(page).fill('EEEE-EEEE-EEEE-EEEE-EEEE-EEEE-EE');
  const [res] = await Promise.all([badgePost(page), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  t.equal(res.status(), 303, 'the badge alone does not sign in: on to the pictures');
  await page.waitForURL(/\/badge\/emoji\?org=/);
  t.ok(await page.getByText(/Hello .?Emmy.?! Tap your secret pictures/).isVisible(), 'greets the badge holder, asks for the pictures');
  t.equal(await page.getByLabel('Your username').count(), 0, 'no username to type');
  await screenshot(page, 'badge-login/04-badge-then-emoji');
  await checkAccessibility(t, page, 'badge + emoji second step');
  for (const name of EMOJI_KID.emoji) await tapPicture(page, name);
  t.equal(await page.getByRole('status').innerText(), '6 of 6 pictures chosen');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await assertSignedIn(t, rp, req, await callback(), { givenName: 'Emmy', type: 'student' });
  t.same(problems, [], 'no console errors');
});
