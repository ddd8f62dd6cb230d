import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import t, { type Test } from 'tap';
import { argon2Verify, hashCredential } from '../../src/accounts/credential-hasher.js';
import { issueBadge } from '../../src/badges/badges.js';
import { labelPlacement, sheetLayout, toPixels } from '../../src/badges/label-layout.js';
import { assertSession, signInAs } from '../helpers/account-session.js';
import { crop, jsQR, run } from '../helpers/badge-pdf.js';
import { readCards } from '../helpers/card-pdf.js';
import { auditEvents, classConsole, type ClassConsole, lockOut, rowOf, savedPdf } from '../helpers/class-console.js';
import { hiddenField } from '../helpers/http-browser.js';
import { consolePage, consolePost, consoleSignInAsStaff } from '../helpers/school-console.js';

/**
 * A teacher's classes in the school console (docs/school-console.md → Your classes, Printing), over HTTP as a
 * browser without JavaScript uses them: only their classes' pupils, with sign-in methods, locks and last
 * sign-ins; a search by name; badges and emoji cards printed for a selection or the whole class (the PDFs read
 * back with poppler: each badge and each card signs its pupil in), every action in the audit trail.
 */

const classUrl = (c: ClassConsole, rest = '') => c.at(`/classes/${c.taught.class.id}${rest}`);

/** The confirmation page of an action for these pupils (or the whole class), as the class page's form asks for it. */
async function confirmation(t: Test, c: ClassConsole, action: string, choice: [string, string][]) {
  const query = new URLSearchParams([['action', action], ...choice]);
  const page = await consolePage(c.browser, classUrl(c, `/confirm?${query}`));
  t.equal(page.status, 200, `the confirmation of ${action}`);
  return page.html;
}

/** Posts the confirmation's form as it is (its token, its pupils, `extra`). */
function confirm(c: ClassConsole, page: string, action: string, extra: [string, string][] = []) {
  const fields = [...page.matchAll(/<input type="hidden" name="(pupil|whole)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!] as [string, string]);
  const body = new URLSearchParams([['csrf', hiddenField(page, 'csrf')], ...fields, ...extra]);
  return c.browser.request(classUrl(c, `/${action}`), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
}

t.test('a teacher sees only their classes\' pupils; another class, pupil or school is a 404', async (t) => {
  const c = await classConsole(t);
  const page = await consolePage(c.browser, classUrl(c));
  t.equal(page.status, 200);
  for (const p of c.taught.pupils) t.match(page.html, `${p.givenName} ${p.familyName}`, `${p.username} is listed`);
  for (const p of c.other.pupils) t.notMatch(page.html, p.username, `${p.username} of another class is not`);
  t.match(page.html, /Apps on the class's dashboard[\s\S]*Demo App/, 'the apps on the pupils\' dashboards');

  const notFound = async (url: string, what: string) => t.equal((await consolePage(c.browser, url)).status, 404, what);
  await notFound(c.at(`/classes/${c.other.class.id}`), 'another class of the school');
  await notFound(c.at(`/classes/${c.other.class.id}/confirm?action=unlock&whole=1`), 'an action for another class');
  await notFound(c.at(`/people/${c.other.pupils[0]!.id}`), 'a pupil of another class');
  await notFound(c.at(`/people/${c.teacher.user.id}`), 'a member of staff (not a pupil of theirs)');
  await notFound(c.at(`/people/${c.south.taught.pupils[0]!.id}`), 'a pupil of another school, under this school');
  await notFound(`${c.lanyard.url}/school/south/classes/${c.south.taught.class.id}`, 'another school\'s class');
  t.equal((await consolePage(c.browser, c.at(`/people/${c.taught.pupils[0]!.id}`))).status, 200, 'a pupil of theirs');

  const csrf = hiddenField(page.html, 'csrf');
  const post = (url: string, form: Record<string, string>) => c.browser.post(url, form);
  t.equal((await post(c.at(`/classes/${c.other.class.id}/unlock`), { csrf, whole: '1' })).status, 404, 'a form for another class');
  t.equal((await post(c.at(`/people/${c.other.pupils[0]!.id}/sign-out`), { csrf })).status, 404, 'a form for another class\'s pupil');
  // A pupil of another class smuggled into this class's form is no one.
  const smuggled = await post(classUrl(c, '/sign-out'), { csrf, pupil: c.other.pupils[0]!.id });
  t.equal(smuggled.status, 400, 'a pupil not in the class is not chosen');

  const search = await consolePage(c.browser, classUrl(c, '?q=chloe'));
  t.match(search.html, /1 pupil of 5 matches “chloe”/, 'a search by name, accents aside');
  t.match(search.html, 'Chloé Dubois');
  t.notMatch(search.html, 'Ada Jones', 'the others are not shown');
  t.match(search.html, /The whole class \(all 5 pupils, not only those shown\)/);
});

t.test('the class page shows each pupil\'s sign-in methods, lock and last sign-in', async (t) => {
  for (const redis of [false, true]) {
    await t.test(redis ? 'on Redis' : 'on SQLite', async (t) => {
      const c = await classConsole(t, { redis });
      const [ada, ben, chloe, lukasz, zoe] = c.taught.pupils.map((p) => p);
      await c.lanyard.store.setCredential(ada!.id, 'emoji', await hashCredential('dog,dog,dog,dog,dog,dog'));
      await issueBadge(c.lanyard.store, ben!);
      await c.lanyard.store.setCredential(chloe!.id, 'password', await hashCredential('chloe-password-1'));
      await signInAs(c.lanyard.url, { emoji: Array(6).fill('dog'), username: ada!.username });
      const statuses = await lockOut(c.lanyard.url, lukasz!.username);
      t.equal(statuses.at(-1), 429, 'Łukasz\'s sign-in from new devices has stopped');

      const page = (await consolePage(c.browser, classUrl(c))).html;
      t.match(rowOf(page, ada!.id), /data-label="Sign-in methods">emoji</);
      t.match(rowOf(page, ada!.id), /data-label="Last sign-in"><time datetime="\d{4}-/, 'Ada signed in');
      t.match(rowOf(page, ben!.id), /data-label="Sign-in methods">badge</);
      t.match(rowOf(page, chloe!.id), /data-label="Sign-in methods">password</);
      t.match(rowOf(page, lukasz!.id), /Locked \(emoji\)/);
      t.match(rowOf(page, ada!.id), /data-label="Locked">No</);
      t.match(rowOf(page, zoe!.id), />none<[\s\S]*Never/, 'Zoë has nothing yet and never signed in');
    });
  }
});

t.test('badges for the pupils chosen: the sheet is the answer, never cached, each label signs its pupil in', async (t) => {
  const c = await classConsole(t);
  const chosen = c.taught.pupils.slice(0, 2);
  const page = await confirmation(t, c, 'badges', chosen.map((p) => ['pupil', p.id]));
  t.match(page, /Their earlier badges stop working at once/);
  t.match(page, /Class 3B: 2 pupils/);
  const res = await confirm(c, page, 'badges', [['paper', 'a4']]);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/pdf');
  const pdf = await savedPdf(res, c.dir, 'badges.pdf');
  t.equal(pdf.disposition, 'attachment; filename="badges-class-3b.pdf"');
  t.equal(pdf.cache, 'no-store', 'it holds secrets: never cached');

  await run('pdftoppm', ['-r', '150', '-png', pdf.path, join(c.dir, 'page')]);
  const png = PNG.sync.read(readFileSync(join(c.dir, readdirSync(c.dir).find((f) => f.endsWith('.png'))!)));
  const signedIn: string[] = [];
  for (const i of chosen.keys()) {
    const px = toPixels(labelPlacement(sheetLayout('a4'), i).cell, 150);
    const qr = jsQR(crop(png, px), px.width, px.height)?.data;
    t.match(qr, /^LB1:[0-9A-Z]{26}$/, `label ${i + 1}: a badge's QR code`);
    signedIn.push((await signInAs(c.lanyard.url, { badge: qr!.slice(4) })).claims.sub);
  }
  t.same(signedIn.sort(), chosen.map((p) => p.id).sort(), 'each label signs one of the two in');
  const holders = await c.lanyard.store.badgeHolders(c.organisation.id);
  t.notOk(c.taught.pupils.slice(2).some((p) => holders.has(p.id)), 'nobody else of the class got one');

  const events = await auditEvents(c.lanyard.store, c.organisation.id, { action: 'badge.issued' }, 2);
  t.same(events.map((e) => e.subjectId).sort(), chosen.map((p) => p.id).sort(), 'each badge issued is in the audit trail');
  t.ok(events.every((e) => e.kind === 'credential' && e.actorId === c.teacher.user.id && e.classId === c.taught.class.id), 'by the teacher, for the class');
  t.match((await consolePage(c.browser, classUrl(c))).html, /2 new badges printed; earlier ones no longer work\./, 'said on the class page next');
});

t.test('emoji cards for the whole class: the confirmation says it sets new pictures; each card is the stored password', async (t) => {
  const c = await classConsole(t);
  const ada = c.taught.pupils[0]!;
  await c.lanyard.store.setCredential(ada.id, 'emoji', await hashCredential('dog,dog,dog,dog,dog,dog'));
  const before = await signInAs(c.lanyard.url, { emoji: Array(6).fill('dog'), username: ada.username });
  const page = await confirmation(t, c, 'emoji-cards', [['whole', '1']]);
  t.match(page, /Print emoji cards: this sets new emoji passwords/);
  t.match(page, /Set new emoji passwords and download the cards/);
  t.match(page, /the whole class \(5 pupils\)/);

  const res = await confirm(c, page, 'emoji-cards');
  t.equal(res.status, 200);
  const pdf = await savedPdf(res, c.dir, 'cards.pdf');
  t.equal(pdf.disposition, 'attachment; filename="emoji-cards-class-3b.pdf"');
  const cards = await readCards(pdf.path, 5);
  for (const [i, card] of cards.entries()) {
    const pupil = c.taught.pupils.find((p) => p.username === card.username);
    t.ok(pupil, `card ${i + 1} is a pupil's of the class`);
    t.ok(card.text.includes('Class 3B · Demo School'), `card ${i + 1}: class and school`);
    const hash = (await c.lanyard.store.getCredential(pupil!.id, 'emoji'))!;
    t.ok(await argon2Verify(hash, card.pictures.join(',')), `card ${i + 1}: the pictures in order are ${card.username}'s stored emoji password`);
  }
  await assertSession(t, before, c.lanyard.url, false, 'Ada\'s session with her old pictures has ended');
  const adas = cards.find((card) => card.username === ada.username)!;
  await assertSession(t, await signInAs(c.lanyard.url, { emoji: adas.pictures, username: ada.username }), c.lanyard.url, true, 'Ada signs in with her card');
  const events = await auditEvents(c.lanyard.store, c.organisation.id, { action: 'emoji.issued', classId: c.taught.class.id }, 5);
  t.equal(events.length, 5, 'each pupil\'s new emoji password is in the audit trail');
});

t.test('unlock and sign out everywhere for the class; a form without its token is refused', async (t) => {
  const c = await classConsole(t);
  const [ada, ben] = c.taught.pupils;
  await c.lanyard.store.setCredential(ada!.id, 'emoji', await hashCredential('cat,cat,cat,cat,cat,cat'));
  const session = await signInAs(c.lanyard.url, { emoji: Array(6).fill('cat'), username: ada!.username });
  await lockOut(c.lanyard.url, ben!.username);
  const page = await confirmation(t, c, 'sign-out', [['whole', '1']]);

  t.equal((await c.browser.post(classUrl(c, '/sign-out'), { whole: '1' })).status, 403, 'no token: refused');
  t.equal((await c.browser.post(classUrl(c, '/sign-out'), { whole: '1', csrf: 'forged' })).status, 403, 'a forged token: refused');
  await assertSession(t, session, c.lanyard.url, true, 'nothing was done');

  const out = await confirm(c, page, 'sign-out');
  t.equal(out.status, 303);
  await assertSession(t, session, c.lanyard.url, false, 'Ada is signed out everywhere');
  const unlocked = await confirm(c, await confirmation(t, c, 'unlock', [['pupil', ben!.id]]), 'unlock');
  t.equal(unlocked.status, 303);
  t.match((await consolePage(c.browser, classUrl(c))).html, /Ben Li unlocked: they can sign in again from any device\./);
  t.notMatch(rowOf((await consolePage(c.browser, classUrl(c))).html, ben!.id), /Locked \(/, 'Ben is no longer locked');
  t.equal((await auditEvents(c.lanyard.store, c.organisation.id, { action: 'user.signed_out', kind: 'console' }, 5)).length, 5, 'signed out: five events');
  const unlocks = await auditEvents(c.lanyard.store, c.organisation.id, { action: 'account.unlocked' }, 1);
  t.same(unlocks.map((e) => [e.subjectId, e.actorId, e.classId]), [[ben!.id, c.teacher.user.id, c.taught.class.id]]);
});

t.test('a school admin has the same for every class of the school, and their own panel on a pupil\'s page', async (t) => {
  const c = await classConsole(t);
  const { south } = c;
  const admin = await consoleSignInAsStaff(c.lanyard.url, south.admin.credentials);
  const classB = `${c.lanyard.url}/school/south/classes/${south.other.class.id}`;
  const page = await consolePage(admin, classB);
  t.equal(page.status, 200, 'a class nobody here teaches');
  for (const p of south.other.pupils) t.match(page.html, `value="${p.id}"`, `${p.username} can be chosen`);
  const pupil = south.other.pupils[0]!;
  const confirmed = await consolePage(admin, `${classB}/confirm?action=sign-out&pupil=${pupil.id}`);
  t.equal((await consolePost(admin, `${classB}/sign-out`, confirmed.html, { pupil: pupil.id })).status, 303);
  const [event] = await auditEvents(c.lanyard.store, south.organisation.id, { action: 'user.signed_out', subjectId: pupil.id }, 1);
  t.match(event, { actorId: south.admin.user.id, classId: south.other.class.id });
  const person = (await consolePage(admin, `${c.lanyard.url}/school/south/people/${pupil.id}`)).html;
  t.match(person, /Help them sign in/);
  t.match(person, /Suspend their account/, 'and what only an admin may do');
  t.equal((await consolePage(admin, classUrl(c))).status, 404, 'another school\'s class');
});
