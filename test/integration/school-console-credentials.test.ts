import t from 'tap';
import type { AuditEvent, Store } from '../../adapters/store.js';
import { ManualClock } from '../../src/clock.js';
import { adminsLock } from '../../src/school/staff-roles.js';
import { location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { consolePage, consolePost, consoleSignInAsStaff, grantRole, putConsoleSchool, putStaffUser } from '../helpers/school-console.js';

/**
 * Staff in the console's audit trail (docs/school-console.md → Who may do what), over HTTP through the real
 * sign-in screens: signing out is in the audit trail of every school one works in, with names as the sign-ins
 * have them; two admins giving up their own role at once cannot both.
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
  const admin = await consoleSignInAsStaff(url, north.admin.credentials, undefined, clock);

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
