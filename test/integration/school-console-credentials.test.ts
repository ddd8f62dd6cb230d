import t from 'tap';
import type { AuditEvent, Store } from '../../adapters/store.js';
import { ManualClock } from '../../src/clock.js';
import { adminsLock } from '../../src/school/staff-roles.js';
import { putVisitor } from '../helpers/class-roster.js';
import { giveHelpCode, tryHelpCode, useDemoApp } from '../helpers/help-codes.js';
import { location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { apiCaller } from '../helpers/school-api.js';
import { consolePage, consolePost, consoleSignInAsStaff, grantRole, putConsoleSchool, putStaffUser } from '../helpers/school-console.js';
import { putSecondFactor, putStaffToken } from '../helpers/staff-tokens.js';

/**
 * Whose credentials the console changes (docs/school-console.md → Who may do what), over HTTP through the real
 * sign-in screens: help codes are for pupils only (never staff of any school, never oneself, and a code given
 * before someone became staff does not sign them in); a school's admin changes no credential or suspension of
 * someone who is staff at another school too, nor their own; signing out is in the audit trail of every school
 * one works in, with names as the sign-ins have them; two admins giving up their own role at once cannot both.
 */

/** The school's audit events of `action` (about `userId` when given), once the recorder has written them. */
async function audited(store: Store, organisationId: string, action: string, userId?: string): Promise<AuditEvent[]> {
  for (let i = 0; ; i += 1) {
    const found = (await store.queryAudit({ organisationId, limit: 500 }))
      .filter((e) => e.action === action && (!userId || e.subjectId === userId || e.actorId === userId));
    if (found.length || i === 50) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

t.test('whose credentials the console changes', async (t) => {
  const clock = new ManualClock(new Date('2027-03-10T09:00:00.000Z'));
  const lanyard = await startLanyard(t, { clock });
  const { url, store } = lanyard;
  const north = await putConsoleSchool(store, 'north');
  const south = await putConsoleSchool(store, 'south');
  await useDemoApp(store, north.organisation.id);
  // A teacher of north who is also given the teacher role at south (the reviewer's case).
  const dual = await putStaffUser(store, north.organisation, 'north-dual', 'Dana', 'Dual');
  await grantRole(store, north.organisation.id, dual.user.id, 'teacher');
  await grantRole(store, south.organisation.id, dual.user.id, 'teacher');
  const admin = await consoleSignInAsStaff(url, north.admin.credentials, undefined, clock);
  const personUrl = (id: string) => `${url}/school/north/people/${id}`;

  t.test('help codes are for pupils only: never staff of any school, never oneself', async (t) => {
    const page = await consolePage(admin, personUrl(dual.user.id));
    t.equal(page.status, 200);
    t.notMatch(page.html, 'help-code-heading', 'no Help code panel on a member of staff\'s page');
    const refused = await consolePost(admin, `${personUrl(dual.user.id)}/help-code`, page.html);
    t.equal(refused.status, 400, 'a code for a member of staff: refused');
    t.match(await refused.text(), 'Help codes are for pupils: Dana Dual is a member of staff');
    t.notOk(await store.findHelpCode(dual.user.id, clock.now().toISOString()), 'no code stored');
    t.equal((await admin.get(`${personUrl(dual.user.id)}/help-code`, { accept: 'text/html' })).status, 400, 'nor a page offering one');

    const teacherPage = await consolePage(admin, personUrl(north.teacher.user.id));
    t.equal((await consolePost(admin, `${personUrl(north.teacher.user.id)}/help-code`, teacherPage.html)).status, 400, 'nor for a teacher the roster enrols here');
    const self = await consolePost(admin, `${personUrl(north.admin.user.id)}/help-code`, page.html);
    t.equal(self.status, 400, 'nor for oneself');
    t.match(await self.text(), 'You cannot give yourself a help code.');
    t.notOk(await store.findHelpCode(north.admin.user.id, clock.now().toISOString()));

    const aide = north.other.pupils[2]!;
    await putVisitor(store, south.taught.class, aide, 'aide');
    const aidePage = await consolePage(admin, personUrl(aide.id));
    t.notMatch(aidePage.html, 'help-code-heading', 'an aide of a class at another school: no panel');
    t.equal((await consolePost(admin, `${personUrl(aide.id)}/help-code`, aidePage.html)).status, 400, 'and no code');

    const ada = north.taught.pupils[0]!;
    const given = await giveHelpCode(admin, url, 'north', ada.id);
    t.equal(given.posted.status, 303, 'a pupil gets one');
    t.equal((await tryHelpCode(url, 'north', ada.username, given.code!)).status, 303, 'and signs in with it');

    const ben = north.taught.pupils[1]!;
    const early = await giveHelpCode(admin, url, 'north', ben.id);
    t.equal(early.posted.status, 303, 'a pupil gets a code…');
    await grantRole(store, south.organisation.id, ben.id, 'teacher');
    const late = await tryHelpCode(url, 'north', ben.username, early.code!);
    t.equal(late.status, 401, '…that no longer signs them in once they are staff somewhere');
  });

  t.test("no credential or suspension of someone who is staff at another school too, nor one's own", async (t) => {
    const page = await consolePage(admin, personUrl(dual.user.id));
    t.match(page.html, 'They are a member of staff at another school too');
    t.notMatch(page.html, /Make a new emoji password|Make up a new password|Suspend their account/, 'no forms for it');
    const password = await store.getCredential(dual.user.id, 'password');
    for (const [action, form] of [['emoji', {}], ['password', { how: 'generate' }], ['password', { how: 'typed', password: 'correct horse', password_again: 'correct horse' }], ['suspend', {}]] as const) {
      const res = await consolePost(admin, `${personUrl(dual.user.id)}/${action}`, page.html, form);
      t.equal(res.status, 400, `${action} ${JSON.stringify(form)}: refused`);
      t.match(await res.text(), 'Dana Dual is a member of staff at another school too');
    }
    // The school API asks the same services: the same rule.
    const apiAdmin = await putStaffUser(store, north.organisation, 'north-sis', 'Sis', 'Sync', 'admin');
    await grantRole(store, north.organisation.id, apiAdmin.user.id, 'admin');
    await putSecondFactor(store, apiAdmin.user.id);
    const token = (await putStaffToken(store, apiAdmin.user.id, { now: clock.now() })).token;
    const call = apiCaller(url);
    for (const [path, body] of [['emoji', undefined], ['password', { generate: true }], ['suspend', undefined], ['unlock', undefined], ['badge/void', undefined]] as const) {
      const res = await call('POST', `/north/people/${dual.user.id}/${path}`, token, body);
      t.equal(res.status, 400, `the API's ${path}: refused`);
      t.match(res.json?.error_description, 'Dana Dual is a member of staff at another school too');
    }
    await store.deleteStaffGrant(north.organisation.id, apiAdmin.user.id, 'admin'); // north has one admin again, for the last test
    t.equal(await store.getCredential(dual.user.id, 'emoji'), undefined, 'no emoji password made');
    t.same(await store.getCredential(dual.user.id, 'password'), password, 'the password unchanged');
    t.equal((await store.findUser(dual.user.id))?.suspendedAt, undefined, 'not suspended');
    await store.setSuspended(dual.user.id, clock.now().toISOString());
    t.equal((await consolePost(admin, `${personUrl(dual.user.id)}/restore`, page.html)).status, 400, 'nor restored');
    t.ok((await store.findUser(dual.user.id))?.suspendedAt, 'still suspended');
    await store.setSuspended(dual.user.id, undefined);

    // Teaching a class of another school (the roster's enrolment, no grant) is the same.
    const roving = await putStaffUser(store, north.organisation, 'north-roving', 'Rory', 'Roving');
    await putVisitor(store, south.other.class, roving.user, 'teacher');
    const rovingPage = await consolePage(admin, personUrl(roving.user.id));
    const res = await consolePost(admin, `${personUrl(roving.user.id)}/emoji`, rovingPage.html);
    t.equal(res.status, 400, 'a teacher of a class at another school: refused');
    t.equal(await store.getCredential(roving.user.id, 'emoji'), undefined);

    const self = await consolePost(admin, `${personUrl(north.admin.user.id)}/suspend`, page.html);
    t.equal(self.status, 400, 'not oneself');
    t.match(await self.text(), 'This is your own account');

    const teacherPage = await consolePage(admin, personUrl(north.teacher.user.id));
    t.equal((await consolePost(admin, `${personUrl(north.teacher.user.id)}/emoji`, teacherPage.html)).status, 303, 'staff of this school only: their admin may');
    t.match((await audited(store, north.organisation.id, 'emoji.reset', north.teacher.user.id))[0], { actorName: 'Alex Admin', subjectName: 'Tess Teacher' });
  });

  t.test("a teacher's pages: a pupil who is staff at another school too gets no new credential, print, void or unlock", async (t) => {
    const teacher = await consoleSignInAsStaff(url, north.teacher.credentials, undefined, clock);
    const [ada, , , lukasz] = north.taught.pupils;
    await grantRole(store, south.organisation.id, lukasz!.id, 'teacher');
    const page = await consolePage(teacher, personUrl(lukasz!.id));
    t.equal(page.status, 200, 'their page, as a pupil of the class');
    t.match(page.html, 'Łukasz Wróblewski is a member of staff at another school too');
    t.notMatch(page.html, /Make a new emoji password|value="badges"|value="emoji-cards"|\/unlock"/, 'no such buttons');
    t.match(page.html, 'Sign out everywhere', 'signing them out stays');
    for (const action of ['emoji', 'badges', 'emoji-cards', 'unlock']) {
      const res = await consolePost(teacher, `${personUrl(lukasz!.id)}/${action}`, page.html);
      t.equal(res.status, 400, `${action}: refused`);
      t.match(await res.text(), 'is a member of staff at another school too');
    }
    t.equal((await teacher.get(`${personUrl(lukasz!.id)}/confirm?action=badges`, { accept: 'text/html' })).status, 400, 'nor confirmed');
    t.equal(await store.getCredential(lukasz!.id, 'emoji'), undefined, 'no emoji password made');

    const classUrl = `${url}/school/north/classes/${north.taught.class.id}`;
    const confirm = await consolePage(teacher, `${classUrl}/confirm?action=unlock&whole=1`);
    // Ben Li too: a teacher at south since the help codes' test.
    t.match(confirm.html, /Left out: Ben Li, Łukasz Wróblewski \(they belong to another school, or are staff at another school too/, 'the whole class: left out, said before');
    const unlocked = await consolePost(teacher, `${classUrl}/unlock`, confirm.html, { whole: '1' });
    t.equal(unlocked.status, 303);
    t.match((await consolePage(teacher, classUrl)).html, 'Left out: Ben Li, Łukasz Wróblewski', 'and after');
    const events = await audited(store, north.organisation.id, 'account.unlocked', ada!.id);
    t.equal(events.length, 1, 'the others are unlocked');
    t.same((await store.queryAudit({ organisationId: north.organisation.id, limit: 500 })).filter((e) => e.action === 'account.unlocked' && e.subjectId === lukasz!.id), [], 'not them');
    const chosen = await consolePage(teacher, `${classUrl}/confirm?action=void-badges&pupil=${lukasz!.id}`);
    const alone = await consolePost(teacher, `${classUrl}/void-badges`, chosen.html, { pupil: lukasz!.id });
    t.equal(alone.status, 400, 'them alone: nothing to do');
    t.match(await alone.text(), 'is a member of staff at another school too');
  });

  t.test('signing out is recorded in every school one works in, named as the sign-ins name people', async (t) => {
    const mono = await putStaffUser(store, north.organisation, 'north-mono', 'Mono', '');
    await grantRole(store, north.organisation.id, mono.user.id, 'teacher');
    await grantRole(store, south.organisation.id, mono.user.id, 'teacher');
    const browser = await consoleSignInAsStaff(url, mono.credentials, undefined, clock);
    const page = (await consolePage(browser, `${url}/school/north`)).html;
    t.equal((await consolePost(browser, `${url}/school/sign-out`, page)).status, 303);
    const names = (e: AuditEvent | undefined) => [e?.actorId, e?.actorName, e?.subjectId, e?.subjectName];
    const named = [mono.user.id, 'Mono', mono.user.id, 'Mono'];
    for (const school of [north, south]) {
      const out = await audited(store, school.organisation.id, 'console.signed_out', mono.user.id);
      t.equal(out.length, 1, `signed out: in ${school.organisation.slug}'s trail`);
      t.same(names(out[0]), named, 'who, named');
      t.same(names((await audited(store, school.organisation.id, 'console.signed_in', mono.user.id))[0]), named, `as signing in is, in ${school.organisation.slug}'s`);
    }
    const signIn = (await audited(store, north.organisation.id, 'sign_in', mono.user.id)).find((e) => e.kind === 'sign_in');
    t.same(names(signIn), named, 'the sign-in itself names them the same (one name: no stray space)');
  });

  t.test('two admins giving up their own admin role at once cannot both', async (t) => {
    const second = await putStaffUser(store, north.organisation, 'north-admin2', 'Sasha', 'Second', 'admin');
    await grantRole(store, north.organisation.id, second.user.id, 'admin');
    const other = await consoleSignInAsStaff(url, second.credentials, undefined, clock);
    const pages = [(await consolePage(admin, `${url}/school/north/staff`)).html, (await consolePage(other, `${url}/school/north/staff`)).html];
    const admins = async () => (await store.listStaffGrants(north.organisation.id)).filter((g) => g.role === 'admin').map((g) => g.userId);

    const token = await store.tryLock(adminsLock(north.organisation.id), 60_000);
    t.ok(token, 'another change to the admins holds the lock');
    const busy = await consolePost(admin, `${url}/school/north/staff/revoke`, pages[0]!, { user_id: north.admin.user.id, role: 'admin' });
    t.equal(busy.status, 400, 'meanwhile: refused');
    t.match(await busy.text(), 'please try again');
    t.ok((await admins()).includes(north.admin.user.id), 'the role kept');
    await store.unlock(adminsLock(north.organisation.id), token!);

    const both = await Promise.all([
      consolePost(admin, `${url}/school/north/staff/revoke`, pages[0]!, { user_id: north.admin.user.id, role: 'admin' }),
      consolePost(other, `${url}/school/north/staff/revoke`, pages[1]!, { user_id: second.user.id, role: 'admin' }),
    ]);
    t.equal(both.filter((r) => r.status === 303).length, 1, 'one gives theirs up');
    t.equal(both.filter((r) => r.status === 400).length, 1, 'the other is refused (the last admin, or try again)');
    t.equal((await admins()).length, 1, 'the school keeps an admin');
    const kept = both.findIndex((r) => r.status === 400);
    t.equal(location(both[1 - kept]!, url).pathname, '/school/north', 'the one who gave it up leaves the admin pages');
  });
});
