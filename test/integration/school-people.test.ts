import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import type { AuditEvent, Store } from '../../adapters/store.js';
import { newId } from '../../adapters/store/ids.js';
import { verifyCredential } from '../../src/accounts/credential-hasher.js';
import { GENERATED_ALPHABET } from '../../src/accounts/user-password.js';
import { EMOJI_BANK } from '../../src/formats/emoji-bank.js';
import { putVisitor } from '../helpers/class-roster.js';
import { hiddenField, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { routeTable } from '../helpers/route-table.js';
import { consolePage, consolePost, consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';

/**
 * People and staff in the school console (docs/school-console.md → People and staff), over HTTP: search and
 * pages, a person's page with suspend and restore, a new emoji password and password shown once, a password
 * typed twice, staff roles given and withdrawn (not the last admin's own), each recorded in the audit trail;
 * a teacher gets 404 for every admin page and form, an admin of another school too.
 */

async function audited(store: Store, organisationId: string, action: string, subjectId: string): Promise<AuditEvent | undefined> {
  for (let i = 0; i < 50; i += 1) {
    const found = (await store.queryAudit({ organisationId, limit: 200 })).find((e) => e.action === action && e.subjectId === subjectId);
    if (found) return found;
    await sleep(50);
  }
  return undefined;
}

t.test('people and staff in the console', async (t) => {
  const lanyard = await startLanyard(t);
  const { store, url } = lanyard;
  const north = await putConsoleSchool(store, 'north');
  const south = await putConsoleSchool(store, 'south');
  const admin = await consoleSignInAsStaff(url, north.admin.credentials);
  const chloe = north.taught.pupils[2]!; // Chloé Dubois
  const personUrl = `${url}/school/north/people/${chloe.id}`;

  t.test('search by name or username, accents and case aside, a page at a time', async (t) => {
    for (let i = 1; i <= 55; i += 1) {
      await store.upsertUser({ id: newId('u'), organisationId: north.organisation.id, username: `north-extra${String(i).padStart(2, '0')}`, givenName: 'Extra', familyName: `Person ${i}`, type: 'student' });
    }
    const all = await consolePage(admin, `${url}/school/north/people`);
    t.equal(all.status, 200);
    t.match(all.html, /65 people · page 1 of 2/, 'everyone, counted');
    t.match(all.html, /rel="next"/);
    const second = await consolePage(admin, `${url}/school/north/people?page=2`);
    t.match(second.html, /page 2 of 2/);
    t.match(second.html, /rel="prev"/);
    t.notMatch(second.html, /rel="next"/);
    const byName = await consolePage(admin, `${url}/school/north/people?q=chloe`);
    t.match(byName.html, /1 person matches “chloe”/);
    t.match(byName.html, new RegExp(`href="/school/north/people/${chloe.id}">Chloé Dubois</a>`));
    t.match((await consolePage(admin, `${url}/school/north/people?q=DUBOIS%20chl`)).html, /1 person matches/, 'every word, any case');
    t.match((await consolePage(admin, `${url}/school/north/people?q=north-a3`)).html, /Chloé Dubois/, 'by username');
    t.match((await consolePage(admin, `${url}/school/north/people?q=south`)).html, /Nobody matches this search/, 'nobody of another school');
    t.equal((await consolePage(admin, `${url}/school/north/people?q=%3Cscript%3E`)).html.includes('<script>alert'), false);
  });

  t.test('suspend and restore, audited', async (t) => {
    const page = await consolePage(admin, personUrl);
    t.equal(page.status, 200);
    t.match(page.html, /<h1>Chloé Dubois<\/h1>/);
    const suspended = await consolePost(admin, `${personUrl}/suspend`, page.html);
    t.equal(suspended.status, 303);
    t.equal(location(suspended, url).toString(), personUrl);
    t.ok((await store.findUser(chloe.id))?.suspendedAt, 'suspended');
    const after = await consolePage(admin, personUrl);
    t.match(after.html, /Chloé Dubois is suspended/, 'the message');
    t.match(after.html, /Restore their account/);
    t.match(await audited(store, north.organisation.id, 'user.suspended', chloe.id), { kind: 'console', actorId: north.admin.user.id, subjectName: 'Chloé Dubois' });
    t.equal((await consolePost(admin, `${personUrl}/restore`, after.html)).status, 303);
    t.equal((await store.findUser(chloe.id))?.suspendedAt, undefined, 'restored');
    t.ok(await audited(store, north.organisation.id, 'user.restored', chloe.id));
    const self = `${url}/school/north/people/${north.admin.user.id}`;
    const refused = await consolePost(admin, `${self}/suspend`, after.html);
    t.equal(refused.status, 400, 'not oneself');
    t.match(await refused.text(), /This is your own account/);
  });

  t.test('a new emoji password and a new password are shown once, and work', async (t) => {
    const page = await consolePage(admin, personUrl);
    t.equal((await consolePost(admin, `${personUrl}/emoji`, page.html)).status, 303);
    const shown = await consolePage(admin, personUrl);
    t.match(shown.html, /The new emoji password/);
    const glyphs = new Map<string, string>(EMOJI_BANK);
    const names = [...shown.html.matchAll(/<li><span class="emoji-reveal-glyph" aria-hidden="true">([^<]+)<\/span> ([^<]+)<\/li>/g)].map((m) => m[2]!);
    t.equal(names.length, 6, 'six pictures');
    t.ok(names.every((n) => glyphs.has(n)), 'from the bank');
    t.ok(await verifyCredential((await store.getCredential(chloe.id, 'emoji'))!, names.join(',')), 'the pictures shown are the password');
    t.notMatch((await consolePage(admin, personUrl)).html, /The new emoji password/, 'shown once');
    t.match(await audited(store, north.organisation.id, 'emoji.reset', chloe.id), { kind: 'credential' });

    t.equal((await consolePost(admin, `${personUrl}/password`, shown.html, { how: 'generate' })).status, 303);
    const revealed = await consolePage(admin, personUrl);
    const password = /<code id="new-password" class="copy-value">([^<]+)<\/code>/.exec(revealed.html)?.[1];
    t.match(password, new RegExp(`^[${GENERATED_ALPHABET}]{4}(-[${GENERATED_ALPHABET}]{4}){3}$`), '16 symbols, as lanyard users password --generate');
    t.ok(await verifyCredential((await store.getCredential(chloe.id, 'password'))!, password!), 'and it is the password');
    t.notMatch((await consolePage(admin, personUrl)).html, /The new password/, 'shown once');
    t.ok(await audited(store, north.organisation.id, 'password.reset', chloe.id));
  });

  t.test('a password typed twice', async (t) => {
    const page = await consolePage(admin, personUrl);
    const differ = await consolePost(admin, `${personUrl}/password`, page.html, { how: 'typed', password: 'correct horse', password_again: 'correct hose' });
    t.equal(differ.status, 400);
    t.match(await differ.text(), /Type the same password twice/);
    const short = await consolePost(admin, `${personUrl}/password`, page.html, { how: 'typed', password: 'short', password_again: 'short' });
    t.equal(short.status, 400);
    t.match(await short.text(), /8 to 1024 characters/);
    const set = await consolePost(admin, `${personUrl}/password`, page.html, { how: 'typed', password: 'correct horse', password_again: 'correct horse' });
    t.equal(set.status, 303);
    t.ok(await verifyCredential((await store.getCredential(chloe.id, 'password'))!, 'correct horse'));
    t.ok(await audited(store, north.organisation.id, 'password.set', chloe.id));
    t.notMatch(await (await admin.get(personUrl)).text(), /correct horse/, 'never shown');
  });

  t.test("a member from another school is managed there; one's own credentials are changed on one's Account page", async (t) => {
    const visitor = south.other.pupils[0]!;
    await putVisitor(store, north.taught.class, visitor, 'student');
    const found = await consolePage(admin, `${url}/school/north/people?q=${visitor.username}`);
    t.match(found.html, /1 person matches/, 'found among the school\'s people');
    const visitorUrl = `${url}/school/north/people/${visitor.id}`;
    const page = await consolePage(admin, visitorUrl);
    t.equal(page.status, 200);
    t.match(page.html, /Their own school, School south, manages how they sign in/);
    t.notMatch(page.html, /Make a new emoji password|Suspend their account/);
    for (const [action, form] of [['suspend', {}], ['emoji', {}], ['password', { how: 'generate' }]] as const) {
      const res = await consolePost(admin, `${visitorUrl}/${action}`, page.html, form);
      t.equal(res.status, 400, `${action}: refused`);
      t.match(await res.text(), /belongs to another school of the district/);
    }
    t.equal((await store.findUser(visitor.id))?.suspendedAt, undefined, 'not suspended');
    t.equal(await store.getCredential(visitor.id, 'emoji'), undefined, 'no emoji password made');

    const selfUrl = `${url}/school/north/people/${north.admin.user.id}`;
    const self = await consolePage(admin, selfUrl);
    t.match(self.html, /Change your own password on your <a href="\/school\/account">Account<\/a> page/);
    const before = await store.getCredential(north.admin.user.id, 'password');
    const res = await consolePost(admin, `${selfUrl}/password`, self.html, { how: 'generate' });
    t.equal(res.status, 400);
    t.equal(await store.getCredential(north.admin.user.id, 'password'), before, 'unchanged');
  });

  t.test('staff roles: given and withdrawn; the last admin keeps theirs', async (t) => {
    const staff = await consolePage(admin, `${url}/school/north/staff`);
    t.equal(staff.status, 200);
    t.match(staff.html, /Alex Admin[\s\S]*School admin <span class="muted">by the operator/);
    t.match(staff.html, /Tess Teacher[\s\S]*of their classes, from the roster/);
    const nobody = await consolePost(admin, `${url}/school/north/staff`, staff.html, { username: 'south-admin', role: 'admin' });
    t.equal(nobody.status, 400, 'someone of another school is nobody here');
    t.match(await nobody.text(), /Nobody of this school has the username/);

    const ownAdmin = await consolePost(admin, `${url}/school/north/staff/revoke`, staff.html, { user_id: north.admin.user.id, role: 'admin' });
    t.equal(ownAdmin.status, 400);
    t.match(await ownAdmin.text(), /only admin who can sign in/);
    t.ok((await store.listStaffGrants(north.organisation.id)).some((g) => g.userId === north.admin.user.id && g.role === 'admin'), 'kept');

    const given = await consolePost(admin, `${url}/school/north/staff`, staff.html, { username: 'north-teacher', role: 'admin' });
    t.equal(given.status, 303);
    t.match((await store.listStaffGrants(north.organisation.id)).find((g) => g.userId === north.teacher.user.id),
      { role: 'admin', source: 'console', grantedBy: north.admin.user.id });
    t.match(await audited(store, north.organisation.id, 'staff.granted', north.teacher.user.id), { detail: { role: 'admin' } });
    const teacher = await consoleSignInAsStaff(url, north.teacher.credentials);
    t.equal((await consolePage(teacher, `${url}/school/north/people`)).status, 200, 'the new admin has the admin pages at once');

    const page = await consolePage(admin, `${url}/school/north/people/${north.teacher.user.id}`);
    t.match(page.html, /School admin<\/strong>: given by Alex Admin in the console/);
    const withdrawn = await consolePost(admin, `${url}/school/north/people/${north.teacher.user.id}/roles`, page.html, { role: 'admin', action: 'revoke' });
    t.equal(withdrawn.status, 303);
    t.equal((await consolePage(teacher, `${url}/school/north/people`)).status, 404, 'withdrawn at once');
    t.ok(await audited(store, north.organisation.id, 'staff.revoked', north.teacher.user.id));

    await consolePost(admin, `${url}/school/north/people/${north.teacher.user.id}/roles`, page.html, { role: 'admin', action: 'grant' });
    const mine = await consolePost(admin, `${url}/school/north/people/${north.admin.user.id}/roles`, page.html, { role: 'admin', action: 'revoke' });
    t.equal(mine.status, 303, 'with another admin, one may give up one\'s own');
    t.equal(location(mine, url).pathname, '/school/north');
    const gone = await admin.get(`${url}/school/north/people`, { accept: 'text/html' });
    t.equal(gone.status, 303, 'with no role left, the console signs them out');
    t.equal(location(gone, url).pathname, '/school/sign-in');
  });

  t.test('a teacher gets 404 for every admin page and form; an admin of another school too', async (t) => {
    const teacher = await consoleSignInAsStaff(url, south.teacher.credentials);
    const other = await consoleSignInAsStaff(url, north.teacher.credentials); // an admin of north now
    const page = (await consolePage(teacher, `${url}/school/south`)).html;
    const otherPage = (await consolePage(other, `${url}/school/north`)).html;
    // A pupil's help code is a teacher's too, for their classes' pupils (docs/school-console.md → Help codes).
    const admin = routeTable(lanyard.app).filter((r) => /^\/school\/:org\/(roster|people|staff)/.test(r.path) && !r.path.includes('/help-code'));
    t.ok(admin.length >= 10, 'the admin routes');
    // A pupil of a class the teacher does not teach: their own pupils' pages are theirs too (school-console-pupil.test.ts).
    const ids = { org: 'south', userId: south.other.pupils[0]!.id, id: 'x'.repeat(22) } as Record<string, string>;
    for (const r of admin) {
      const path = r.path.replace(/:(\w+)/g, (_m, name: string) => ids[name] ?? 'x');
      for (const method of r.methods.filter((m) => m === 'GET' || m === 'POST')) {
        for (const [who, browser, from] of [['a teacher', teacher, page], ['an admin of another school', other, otherPage]] as const) {
          const res = method === 'GET' ? await browser.get(`${url}${path}`, { accept: 'text/html' })
            : await browser.post(`${url}${path}`, { csrf: hiddenField(from, 'csrf'), role: 'admin', action: 'grant', user_id: south.teacher.user.id, username: 'south-teacher' });
          t.equal(res.status, 404, `${method} ${r.path}: ${who}`);
        }
      }
    }
    t.equal((await store.listStaffGrants(south.organisation.id)).filter((g) => g.userId === south.teacher.user.id).length, 0, 'nothing given');
  });
});
