import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { syncConfigStaff } from '../../../src/accounts/config-staff.js';
import { ManualClock } from '../../../src/clock.js';

t.test("the file's staff_roles become grants, kept in step at every start, and other grants are left alone", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-config-staff-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const clock = new ManualClock(new Date('2026-11-29T08:00:00Z'));
  const store = openSqliteStore(join(dir, 'lanyard.db'), clock);
  t.teardown(() => store.close());
  const org = await store.upsertOrganisation({ slug: 'north', name: 'North' });
  const ann = await store.upsertUser({ organisationId: org.id, username: 'ann', givenName: 'Ann', familyName: 'A', type: 'employee' });
  const bob = await store.upsertUser({ organisationId: org.id, username: 'bob', givenName: 'Bob', familyName: 'B', type: 'employee' });
  await store.putStaffGrant({ organisationId: org.id, userId: bob.id, role: 'admin', source: 'console', grantedAt: clock.now().toISOString() });
  const seed = (roles: ('admin' | 'teacher')[]) => [{
    slug: 'north', name: 'North',
    users: [{ username: 'ann', given_name: 'Ann', family_name: 'A', type: 'employee', staff_roles: roles }, { username: 'bob', given_name: 'Bob', family_name: 'B', type: 'employee' }],
  }];
  const roles = async () => (await store.listStaffGrants(org.id)).map((g) => `${g.userId === ann.id ? 'ann' : 'bob'}:${g.role}:${g.source}`).sort();

  await syncConfigStaff(store, seed(['admin', 'teacher']), clock);
  t.same(await roles(), ['ann:admin:config', 'ann:teacher:config', 'bob:admin:console'], 'listed roles granted; a console grant untouched');
  await syncConfigStaff(store, seed(['teacher']), clock);
  t.same(await roles(), ['ann:teacher:config', 'bob:admin:console'], 'a role the file stops listing is withdrawn');
  await syncConfigStaff(store, seed([]), clock);
  t.same(await roles(), ['bob:admin:console'], "and the console's grant is never the file's to withdraw");
});
