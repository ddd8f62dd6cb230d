import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import t from 'tap';
import { argon2Verify } from '../../src/accounts/credential-hasher.js';
import { labelPlacement, sheetLayout, toPixels } from '../../src/badges/label-layout.js';
import { projectRoot } from '../../src/package-files.js';
import { crop, jsQR, run } from '../helpers/badge-pdf.js';
import { CHROMEBOOK } from '../helpers/browser-flow.js';
import { launchBrowser, openPage, screenshot } from '../helpers/browser.js';
import { readCards } from '../helpers/card-pdf.js';
import { openMethod, postBadge } from '../helpers/children.js';
import { downloadBy, setUpTwoStepInBrowser, signInToConsole } from '../helpers/console-browser.js';
import { freshTotpCode } from '../helpers/developer.js';
import { cardCode, useDemoApp } from '../helpers/help-codes.js';
import { HttpBrowser, hiddenField } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { tempDir } from '../helpers/roster-files.js';
import { givePassword } from '../helpers/school-audit.js';
import { auditEvents, consolePage, consolePost, consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';
import { schoolExportZip, uploadRoster } from '../helpers/school-roster.js';

/**
 * A school's day in the console, end to end in Chromium at a Chromebook's size (docs/school-console.md → A
 * school's first day): the admin signs in, sets up two-step sign-in and signs in again with a code, uploads the
 * school's OneRoster zip, reads the plan and applies it; a teacher the roster brought in signs in, opens their
 * class, prints its badges (a QR code read back signs its pupil in) and emoji cards (each card's pictures are
 * the pupil's emoji password), and gives a pupil a help code; the pupil signs in with it on another device and
 * reaches the dashboard, and the same code fails after; the admin finds both sign-ins on the audit trail and in
 * its CSV; an admin of another school gets 404 for every one of those pages and forms.
 *
 * Every page is screenshotted (test-artifacts/screenshots/school-console-journey/). With
 * LANYARD_DOC_SCREENSHOTS=1 the pages docs/school-console.md shows are also written, one screen each, to
 * docs/images/school-console/ (docs/development.md → refreshing them).
 */

const DOC_IMAGES = process.env.LANYARD_DOC_SCREENSHOTS === '1' ? join(projectRoot, 'docs/images/school-console') : undefined;

let shots = 0;
/** The page's screenshot; and, named `doc`, the screen as the guide shows it (the viewport, not the whole page). */
async function look(page: Page, name: string, doc?: string): Promise<void> {
  await screenshot(page, `school-console-journey/${String(++shots).padStart(2, '0')}-${name}`);
  if (doc && DOC_IMAGES) {
    mkdirSync(DOC_IMAGES, { recursive: true });
    await page.screenshot({ path: join(DOC_IMAGES, `${doc}.png`), animations: 'disabled', caret: 'hide' });
  }
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();

t.test('a school\'s day in the console: roster, classes, printing, a help code, the audit trail; another school sees none of it', async (t) => {
  const started = Date.now();
  const lanyard = await startLanyard(t);
  const { url, store } = lanyard;
  const north = await putConsoleSchool(store, 'north', 'Northfield Primary');
  const south = await putConsoleSchool(store, 'south', 'Southgate Primary');
  await useDemoApp(store, north.organisation.id);
  const org = north.organisation.id;
  const dir = tempDir(t, 'lanyard-journey-');
  const zip = await schoolExportZip(dir, 'northfield-export', north, {
    add: [{ username: 'nia.newcomer', given: 'Nia', family: 'Newcomer', klass: 'a' }],
    teachers: [{ username: 'h.marsh', given: 'Helen', family: 'Marsh', klass: 'a' }],
  });
  const browser = await launchBrowser(t);

  // The admin: the first sign-in leads to setting up two-step sign-in; then a sign-in with a code.
  const admin = await openPage(t, browser, CHROMEBOOK);
  await signInToConsole(admin.page, url, north.organisation.name, north.admin.credentials);
  await admin.page.waitForURL(/\/school\/account\/two-step$/);
  await look(admin.page, 'two-step-required');
  const secret = await setUpTwoStepInBrowser(admin.page, () => look(admin.page, 'two-step-set-up', 'two-step-set-up'));
  await look(admin.page, 'recovery-codes');
  await admin.page.getByRole('button', { name: 'Sign out' }).click();
  await admin.page.waitForURL(/\/school\/sign-in\/signed-out$/);
  await signInToConsole(admin.page, url, north.organisation.name, north.admin.credentials);
  await admin.page.waitForURL(/\/school\/sign-in\/second-step$/);
  await admin.page.getByLabel('Code').fill(await freshTotpCode(secret));
  await admin.page.getByRole('button', { name: 'Continue' }).click();
  await admin.page.waitForURL(`${url}/school/north`);
  t.equal(await heading(admin.page), 'Classes', 'the admin is in, with the second step');

  // The roster: upload, the plan, apply.
  await admin.page.getByRole('link', { name: 'Roster' }).click();
  await admin.page.getByLabel('The export').setInputFiles(zip);
  await admin.page.getByRole('button', { name: 'Upload and see the plan' }).click();
  await admin.page.waitForURL(/\/roster\/plans\//);
  const planUrl = admin.page.url();
  t.equal(await heading(admin.page), 'The roster plan');
  await admin.page.locator('summary', { hasText: 'Added' }).click();
  t.ok(await admin.page.getByRole('cell', { name: 'h.marsh in Class A' }).isVisible(), 'the plan enrols the roster\'s teacher');
  await look(admin.page, 'roster-plan', 'roster-plan');
  await admin.page.getByRole('button', { name: 'Apply this plan' }).click();
  await admin.page.waitForURL(/\/roster$/);
  t.match(await admin.page.getByRole('status').first().innerText(), /The roster was applied/);
  await look(admin.page, 'roster-applied');
  await admin.page.getByRole('link', { name: 'Apps' }).click();
  t.equal(await heading(admin.page), 'Apps');
  await look(admin.page, 'apps', 'apps');

  // The teacher the roster brought in, with a password (as an admin would set one).
  const helen = (await store.findUserByUsername(org, 'h.marsh'))!;
  t.ok(helen, 'the roster made the teacher');
  const helenPassword = await givePassword(store, helen);
  const teacher = await openPage(t, browser, CHROMEBOOK);
  const tp = teacher.page;
  await signInToConsole(tp, url, north.organisation.name, { username: 'h.marsh', password: helenPassword });
  await tp.waitForURL(`${url}/school/north`);
  await tp.getByRole('link', { name: 'Class A' }).click();
  t.equal(await heading(tp), 'Class A');
  const classUrl = tp.url();
  const pupils = await Promise.all(['north-a1', 'north-a2', 'north-a3', 'north-a4', 'nia.newcomer'].map(async (u) => (await store.findUserByUsername(org, u))!));
  t.equal(await tp.locator('tbody tr').count(), pupils.length, 'the class\'s five pupils, the newcomer among them');
  await look(tp, 'class');

  // Badges for the whole class: the sheet downloads; a label's QR code signs its pupil in.
  await tp.getByLabel(/^The whole class/).check();
  await tp.getByRole('button', { name: 'Print badges' }).click();
  await tp.waitForURL(/\/confirm\?/);
  t.match(await tp.locator('.school-whom').innerText(), /5 pupils/);
  await look(tp, 'confirm-badges', 'print-confirmation');
  const badges = await downloadBy(tp, tp.getByRole('button', { name: 'Issue new badges and download the sheet' }), dir);
  t.match(badges, /badges-class-a\.pdf$/, 'the sheet, named for the class');
  await run('pdftoppm', ['-r', '150', '-f', '1', '-l', '1', '-png', badges, join(dir, 'badges')]);
  const png = PNG.sync.read(readFileSync(join(dir, readdirSync(dir).find((f) => f.startsWith('badges') && f.endsWith('.png'))!)));
  const px = toPixels(labelPlacement(sheetLayout('letter'), 0).cell, 150);
  const qr = jsQR(crop(png, px), px.width, px.height)?.data;
  t.match(qr, /^LB1:[0-9A-Z]{26}$/, 'the first label\'s QR code, read back');
  const holders = await store.badgeHolders(org);
  t.ok(pupils.every((p) => holders.has(p.id)), 'each pupil of the class has a badge');
  const badgeBrowser = new HttpBrowser();
  const badgeStep = await openMethod(badgeBrowser, url, 'badge', 'north');
  t.equal((await postBadge(badgeBrowser, url, badgeStep, qr!.slice(4))).status, 303, 'the label signs its pupil in');

  // Emoji cards for the whole class: each card's pictures are its pupil's new emoji password.
  await tp.goto(classUrl);
  await tp.getByLabel(/^The whole class/).check();
  await tp.getByRole('button', { name: 'Print emoji cards' }).click();
  await tp.waitForURL(/\/confirm\?/);
  await look(tp, 'confirm-emoji-cards');
  const cardsPdf = await downloadBy(tp, tp.getByRole('button', { name: 'Set new emoji passwords and download the cards' }), dir);
  const cards = await readCards(cardsPdf, pupils.length);
  t.same(cards.map((c) => c.username).sort(), pupils.map((p) => p.username).sort(), 'a card for each pupil');
  for (const card of cards) {
    const hash = (await store.getCredential(pupils.find((p) => p.username === card.username)!.id, 'emoji'))!;
    t.ok(await argon2Verify(hash, card.pictures.join(',')), `${card.username}'s card: their emoji password`);
  }

  // A help code for a pupil, from their page.
  const ada = pupils[0]!;
  await tp.goto(classUrl);
  t.match(await tp.locator('tbody').innerText(), /badge, emoji|emoji, badge/, 'the class page: each pupil has a badge and an emoji password now');
  await look(tp, 'class-printed', 'class');
  await tp.getByRole('link', { name: `${ada.givenName} ${ada.familyName}` }).click();
  await tp.getByRole('button', { name: /^Give a help code/ }).click();
  await tp.locator('.help-code-card').waitFor();
  const code = cardCode(await tp.content());
  t.match(code, /^\d{6}$/, 'the code on the card');
  await look(tp, 'help-code', 'help-code');

  // The pupil, on another device: the school, "I have a help code", the dashboard. Then the code again: refused.
  const helpCodeSignIn = async () => {
    const pupil = await openPage(t, browser, CHROMEBOOK);
    await pupil.page.goto(`${url}/`);
    await pupil.page.getByLabel('School name').fill('Northfield');
    await pupil.page.getByRole('button', { name: 'Search' }).click();
    await pupil.page.getByRole('link', { name: 'Northfield Primary' }).click();
    await pupil.page.getByRole('link', { name: /I have a help code/ }).click();
    await pupil.page.getByLabel('Your username').fill(ada.username);
    await pupil.page.getByLabel('Help code').fill(code!);
    await pupil.page.getByRole('button', { name: 'Sign in' }).click();
    return pupil;
  };
  const pupil = await helpCodeSignIn();
  await pupil.page.waitForURL(`${url}/`);
  t.equal(await heading(pupil.page), `Hello, ${ada.givenName}`, 'the pupil is on the dashboard');
  await look(pupil.page, 'pupil-dashboard');
  const again = await helpCodeSignIn();
  await again.page.getByRole('alert').waitFor();
  t.match(await again.page.getByRole('alert').innerText(), /That help code did not work/, 'the code works once');
  await look(again.page, 'help-code-used');

  // The admin finds both sign-ins on the audit trail, and in its CSV.
  const signIns = await auditEvents(lanyard, org, 'sign_in');
  t.ok(signIns.some((e) => e.subjectId === ada.id && e.method === 'help_code' && e.result === 'success'), 'the help-code sign-in is recorded');
  await admin.page.getByRole('link', { name: 'Audit' }).click();
  t.equal(await heading(admin.page), 'Audit trail');
  const rows = await admin.page.locator('tbody tr').allInnerTexts();
  t.ok(rows.some((r) => r.includes(`${ada.givenName} ${ada.familyName}`) && /help code/i.test(r)), 'the pupil\'s help-code sign-in, on the page');
  t.ok(rows.some((r) => r.includes('Helen Marsh') && /Sign-in/i.test(r)), 'the teacher\'s sign-in, on the page');
  await look(admin.page, 'audit');
  // The guide's screen: from the page's links down, the filters and the newest events.
  await admin.page.evaluate('window.scrollTo(0, document.querySelector("main .page-links").getBoundingClientRect().top + window.scrollY - 16)');
  await look(admin.page, 'audit-events', 'audit-trail');
  const csvPath = await downloadBy(admin.page, admin.page.getByRole('link', { name: 'Download these events as CSV' }), dir);
  const csv = parse(readFileSync(csvPath, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
  t.ok(csv.some((r) => r.kind === 'sign_in' && r.subject_id === ada.id && r.method === 'help_code' && r.result === 'success'), 'the help-code sign-in, in the CSV');
  t.ok(csv.some((r) => r.kind === 'sign_in' && r.subject_id === helen.id && r.method === 'password' && r.result === 'success'), 'the teacher\'s sign-in, in the CSV');
  // A form whose answer is a download ends its navigation there: Chromium reports that request as aborted.
  const downloads = /\/(badges|emoji-cards) \(net::ERR_ABORTED\)$/;
  t.same([admin.problems, teacher.problems.filter((p) => !downloads.test(p)), pupil.problems], [[], [], []], 'nothing went wrong in the browsers');

  // An admin of another school: every page and form of all that is a 404.
  const other = await consoleSignInAsStaff(url, south.admin.credentials);
  const own = (await consolePage(other, `${url}/school/south`)).html;
  const klass = north.taught.class.id;
  for (const path of [
    '/school/north', `/school/north/classes/${klass}`, `/school/north/classes/${klass}/confirm?action=badges&whole=1`, `/school/north/people/${ada.id}`,
    `/school/south/classes/${klass}`, `/school/south/people/${ada.id}`, '/school/north/roster', new URL(planUrl).pathname, '/school/north/audit',
    '/school/north/audit.csv', '/school/north/apps', '/school/north/help-codes',
  ]) t.equal((await consolePage(other, `${url}${path}`)).status, 404, `GET ${path}`);
  for (const path of [
    `/school/north/classes/${klass}/badges`, `/school/north/classes/${klass}/emoji-cards`, `/school/north/people/${ada.id}/help-code`,
    `/school/south/people/${ada.id}/help-code`, `${new URL(planUrl).pathname}/apply`,
  ]) {
    t.equal((await consolePost(other, `${url}${path}`, own, { whole: '1' })).status, 404, `POST ${path}`);
  }
  t.equal((await uploadRoster(other, url, 'north', own, zip)).status, 404, 'POST /school/north/roster (the upload)');
  t.ok(hiddenField(own, 'csrf'), 'those forms carried the other admin\'s own token');
  t.comment(`the walk took ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
