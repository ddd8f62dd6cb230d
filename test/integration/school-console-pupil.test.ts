import t from 'tap';
import { argon2Verify, hashCredential } from '../../src/accounts/credential-hasher.js';
import { issueBadge } from '../../src/badges/badges.js';
import { assertSession, refusedSignIn, signInAs } from '../helpers/account-session.js';
import { readCards } from '../helpers/card-pdf.js';
import { auditEvents, classConsole, lockOut, savedPdf } from '../helpers/class-console.js';
import { hiddenField, location } from '../helpers/http-browser.js';
import { consolePage, consolePost } from '../helpers/school-console.js';

/**
 * Helping one pupil in the school console (docs/school-console.md → Helping a pupil), over HTTP, as their
 * teacher: their page's facts; a new emoji password shown once, with its card; a badge voided; unlocked;
 * signed out everywhere; none of what only an admin may do. Every change is in the school's audit trail with
 * the teacher as its actor; a form without its token changes nothing.
 */

t.test('a new emoji password: shown once, printable, and the pupil signs in with it', async (t) => {
  const c = await classConsole(t);
  const ada = c.taught.pupils[0]!;
  const person = c.at(`/people/${ada.id}`);
  await c.lanyard.store.setCredential(ada.id, 'emoji', await hashCredential('dog,dog,dog,dog,dog,dog'));
  const before = await signInAs(c.lanyard.url, { emoji: Array(6).fill('dog'), username: ada.username });

  const page = await consolePage(c.browser, person);
  t.equal(page.status, 200);
  t.match(page.html, /<dt>Signs in with<\/dt><dd>emoji<\/dd>/);
  t.match(page.html, /<dt>Last sign-in<\/dt><dd>\d{4}-\d\d-\d\d/);
  t.match(page.html, /<a href="\/school\/demo-school\/classes\/[^"]+">Class 3B<\/a>/, 'the way back is to the class');
  t.notMatch(page.html, /Suspend their account|Staff roles in this school|Make up a new password/, 'nothing only an admin may do');
  for (const action of ['suspend', 'password', 'roles']) {
    t.equal((await consolePost(c.browser, `${person}/${action}`, page.html, { how: 'generate', role: 'admin', action: 'grant' })).status, 404, `${action}: an admin's, a 404`);
  }

  const reset = await consolePost(c.browser, `${person}/emoji`, page.html);
  t.equal(reset.status, 303);
  t.equal(location(reset, c.lanyard.url).pathname, `/school/demo-school/people/${ada.id}`);
  const shown = await consolePage(c.browser, person);
  t.match(shown.html, /The new emoji password/);
  const pictures = hiddenField(shown.html, 'pictures').split(',');
  t.equal(pictures.length, 6, 'six pictures');
  t.ok(await argon2Verify((await c.lanyard.store.getCredential(ada.id, 'emoji'))!, pictures.join(',')), 'they are the stored emoji password');
  const again = await consolePage(c.browser, person);
  t.notMatch(again.html, /The new emoji password/, 'shown once');
  t.notMatch(again.html, pictures.join(','), 'the pictures are gone');

  const card = await consolePost(c.browser, `${person}/emoji-card`, shown.html, { pictures: pictures.join(','), paper: 'letter' });
  t.equal(card.status, 200);
  t.equal(card.headers.get('content-type'), 'application/pdf');
  const pdf = await savedPdf(card, c.dir, 'card.pdf');
  t.equal(pdf.cache, 'no-store');
  t.equal(pdf.disposition, 'attachment; filename="emoji-card-p3b-1.pdf"');
  const [read] = await readCards(pdf.path, 1);
  t.same(read!.pictures, pictures, 'the card shows the new pictures, in order');
  t.equal(read!.username, ada.username);
  const wrong = await consolePost(c.browser, `${person}/emoji-card`, shown.html, { pictures: 'dog,dog,dog,dog,dog,dog' });
  t.equal(wrong.status, 400, 'a card for pictures that are not the password is refused');

  await assertSession(t, before, c.lanyard.url, false, 'her session with the old pictures has ended');
  await assertSession(t, await signInAs(c.lanyard.url, { emoji: pictures, username: ada.username }), c.lanyard.url, true, 'Ada signs in with the new pictures');
  const [event] = await auditEvents(c.lanyard.store, c.organisation.id, { action: 'emoji.reset' }, 1);
  t.match(event, { kind: 'credential', actorId: c.teacher.user.id, actorName: 'Tess Teacher', subjectId: ada.id, subjectName: 'Ada Jones' });
  t.ok((await auditEvents(c.lanyard.store, c.organisation.id, { action: 'emoji.card_printed', subjectId: ada.id }, 1)).length, 'the card\'s printing too');
  t.notMatch(JSON.stringify(await c.lanyard.store.queryAudit({ organisationId: c.organisation.id, limit: 100 })), pictures.join(','), 'no secret in the trail');
});

t.test('a badge voided, an account unlocked, signed out everywhere; without the token nothing changes', async (t) => {
  const c = await classConsole(t);
  const ben = c.taught.pupils[1]!;
  const person = c.at(`/people/${ben.id}`);
  const badge = await issueBadge(c.lanyard.store, ben);
  const session = await signInAs(c.lanyard.url, { badge: badge.code });
  t.equal((await lockOut(c.lanyard.url, ben.username)).at(-1), 429, 'Ben is locked out on new devices');
  const page = (await consolePage(c.browser, person)).html;
  t.match(page, /<dt>Signs in with<\/dt><dd>badge<\/dd>/);
  t.match(page, /<dt>Locked<\/dt><dd><span class="status-badge status-locked">Locked \(emoji\)<\/span><\/dd>/);

  for (const action of ['void-badges', 'unlock', 'sign-out', 'emoji']) {
    t.equal((await c.browser.post(`${person}/${action}`, {})).status, 403, `${action} without the token: refused`);
  }
  await assertSession(t, session, c.lanyard.url, true, 'nothing was done');

  const unlocked = await consolePost(c.browser, `${person}/unlock`, page);
  t.equal(unlocked.status, 303);
  const after = (await consolePage(c.browser, person)).html;
  t.match(after, /Ben Li unlocked/, 'said once on his page');
  t.match(after, /<dt>Locked<\/dt><dd>No<\/dd>/);
  await c.lanyard.store.setCredential(ben.id, 'emoji', await hashCredential('cat,cat,cat,cat,cat,cat'));
  await assertSession(t, await signInAs(c.lanyard.url, { emoji: Array(6).fill('cat'), username: ben.username }), c.lanyard.url, true, 'unlocked: Ben signs in on a new device');

  t.equal((await consolePost(c.browser, `${person}/sign-out`, page)).status, 303);
  await assertSession(t, session, c.lanyard.url, false, 'signed out everywhere');

  const voiding = await consolePage(c.browser, `${person}/confirm?action=void-badges`);
  t.match(voiding.html, /Their badges stop working at once/);
  t.equal((await consolePost(c.browser, `${person}/void-badges`, voiding.html)).status, 303);
  t.equal((await refusedSignIn(c.lanyard.url, { badge: badge.code })).status, 401, 'the voided badge no longer signs in');
  t.match((await consolePage(c.browser, person)).html, /<dt>Signs in with<\/dt><dd>emoji<\/dd>/, 'no badge now');

  for (const action of ['account.unlocked', 'user.signed_out', 'badge.voided']) {
    const [event] = await auditEvents(c.lanyard.store, c.organisation.id, { action, subjectId: ben.id }, 1);
    t.match(event, { actorId: c.teacher.user.id, subjectName: 'Ben Li' }, `${action} is in the audit trail`);
  }
});

t.test('printing one pupil\'s badge from their page: confirmed, then the PDF', async (t) => {
  const c = await classConsole(t);
  const chloe = c.taught.pupils[2]!;
  const person = c.at(`/people/${chloe.id}`);
  const confirm = await consolePage(c.browser, `${person}/confirm?action=badges`);
  t.match(confirm.html, /Print new badges/);
  t.match(confirm.html, /Chloé Dubois/);
  const res = await consolePost(c.browser, `${person}/badges`, confirm.html, { paper: 'a4' });
  t.equal(res.status, 200);
  const pdf = await savedPdf(res, c.dir, 'badge.pdf');
  t.equal(pdf.disposition, 'attachment; filename="badges-p3b-3.pdf"');
  t.ok((await c.lanyard.store.badgeHolders(c.organisation.id)).has(chloe.id), 'she has a badge now');
  t.equal((await consolePage(c.browser, `${person}/confirm?action=delete`)).status, 404, 'an action there is not: a 404');
});
