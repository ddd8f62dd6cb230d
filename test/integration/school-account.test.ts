import t from 'tap';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { auditEvents, consolePage, consolePost, consoleSecondStep, consoleSignIn, consoleSignInAsStaff, putConsoleSchool, setUpConsoleTwoStep } from '../helpers/school-console.js';

/**
 * /school/account (docs/school-console.md → Signing in and your account): the person's schools and roles, their
 * own password (the current one first; the change ends every other session of theirs, and this browser stays
 * signed in), new recovery codes (the old ones stop working). Each change is in the audit trail, without a secret.
 */


const lanyard = await startLanyard(t);
const { url, store } = lanyard;
const north = await putConsoleSchool(store, 'north');
const south = await putConsoleSchool(store, 'south');
const html = { accept: 'text/html' };
const ACCOUNT = `${url}/school/account`;

t.test('the account page: name, schools and roles', async (t) => {
  // The teacher of north is also made an admin of south.
  await store.putStaffGrant({ organisationId: south.organisation.id, userId: north.teacher.user.id, role: 'admin', source: 'operator', grantedAt: new Date().toISOString() });
  t.teardown(() => store.deleteStaffGrant(south.organisation.id, north.teacher.user.id, 'admin'));
  const browser = await consoleSignInAsStaff(url, north.teacher.credentials);
  const page = await consolePage(browser, ACCOUNT);
  t.equal(page.status, 200);
  t.match(page.html, 'Tess Teacher');
  t.match(page.html, 'north-teacher');
  t.match(page.html, /School north<\/a><\/td>\s*<td data-label="Role">Teacher</);
  t.match(page.html, /School south<\/a><\/td>\s*<td data-label="Role">School admin</);
  t.match(page.html, 'name="currentPassword"', 'a password to change');
});

t.test('changing the password: the current one first; then every other session ends, this one stays', async (t) => {
  const { teacher } = north;
  const other = await consoleSignInAsStaff(url, teacher.credentials);
  const browser = await consoleSignInAsStaff(url, teacher.credentials);
  const page = (await consolePage(browser, ACCOUNT)).html;
  const next = 'a brand new teacher password';
  const post = (form: Record<string, string>) => consolePost(browser, `${ACCOUNT}/password`, page, form);

  const wrong = await post({ currentPassword: 'not the password', newPassword: next, confirmPassword: next });
  t.equal(wrong.status, 401, 'a wrong current password');
  t.match(await wrong.text(), 'That is not your password');
  t.equal((await post({ currentPassword: teacher.credentials.password, newPassword: next, confirmPassword: `${next}!` })).status, 400, 'the new one twice, the same');
  t.equal((await post({ currentPassword: teacher.credentials.password, newPassword: 'short', confirmPassword: 'short' })).status, 400, 'at least 8 characters');
  t.equal((await post({ currentPassword: '', newPassword: next, confirmPassword: next })).status, 400, 'the current one is asked for');
  t.equal((await consolePage(other, `${url}/school/north`)).status, 200, 'nothing changed yet');

  const changed = await post({ currentPassword: teacher.credentials.password, newPassword: next, confirmPassword: next });
  t.equal(changed.status, 303);
  t.equal(location(changed, url).pathname, '/school/account');
  const after = await consolePage(browser, ACCOUNT);
  t.equal(after.status, 200, 'this browser is still signed in');
  t.match(after.html, 'Your password is changed');
  t.equal((await other.get(`${url}/school/north`, html)).status, 303, 'the other session has ended');
  const { done } = await consoleSignIn(url, { ...teacher.credentials, password: next });
  t.equal(done.status, 303, 'the new password signs in');
  await t.rejects(consoleSignIn(url, teacher.credentials), 'the old one does not');
  const events = await auditEvents(lanyard, north.organisation.id, 'password.changed');
  t.match(events, [{ kind: 'credential', actorId: teacher.user.id, subjectId: teacher.user.id }], 'recorded');
  t.notMatch(JSON.stringify(events), next, 'without the password');
});

t.test('new recovery codes: asked who it is first; the old ones stop working', async (t) => {
  const { admin } = north;
  const { browser } = await consoleSignIn(url, admin.credentials);
  const { recoveryCodes: old } = await setUpConsoleTwoStep(url, browser, { who: admin.credentials });
  const before = (await store.getStaffSecondFactor(admin.user.id))!.recoveryCodeHashes;
  const page = (await consolePage(browser, ACCOUNT)).html;
  t.match(page, 'You have 10 unused recovery codes');
  t.equal((await consolePost(browser, `${ACCOUNT}/recovery-codes`, page, { confirm: '' })).status, 400, 'nothing typed');
  t.equal((await consolePost(browser, `${ACCOUNT}/recovery-codes`, page, { confirm: 'a wrong password' })).status, 401, 'a wrong password');
  t.same((await store.getStaffSecondFactor(admin.user.id))!.recoveryCodeHashes, before, 'unchanged');
  const made = await consolePost(browser, `${ACCOUNT}/recovery-codes`, page, { confirm: admin.credentials.password });
  t.equal(location(made, url).pathname, '/school/account/recovery-codes');
  const codes = /id="recovery-codes">([^<]*)</.exec((await consolePage(browser, `${ACCOUNT}/recovery-codes`)).html)![1]!.trim().split('\n');
  t.equal(codes.length, 10);
  t.notSame((await store.getStaffSecondFactor(admin.user.id))!.recoveryCodeHashes, before, 'replaced');
  t.match(await auditEvents(lanyard, north.organisation.id, 'recovery_codes.replaced'), [{ kind: 'credential', actorId: admin.user.id }]);

  const signIn = await consoleSignIn(url, admin.credentials, new HttpBrowser());
  t.equal((await consoleSecondStep(url, signIn.browser, old[0]!)).status, 401, 'an old code does not work');
  t.equal((await consoleSecondStep(url, signIn.browser, codes[0]!)).status, 303, 'a new one does');
});
