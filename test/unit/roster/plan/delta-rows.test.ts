import t from 'tap';
import type { RosterSnapshot, User } from '../../../../adapters/store.js';
import { mapOrganisations } from '../../../../src/roster/plan/organisations.js';
import { planRoster } from '../../../../src/roster/plan/plan-roster.js';
import { context, emptySnapshot, enrol, person, school, source, user } from '../../../helpers/roster-plans.js';

/**
 * Delta rows that name no school (a minimal tobedeleted person or enrolment, a OneRoster 1.2 person without
 * role rows): they are the stored records with their sourcedId in any organisation the roster knows.
 */

const HILL = school('o1', 'hill', { sourceId: 'sch1' });
const DALE = school('o2', 'dale', { sourceId: 'sch2' });
const HAND = school('o3', 'by-hand');
const ORGS = [HILL, DALE, HAND];
const kids = (org: string, prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => user(`${prefix}${i}`, org, `${prefix}${i}.k`, { sourceId: `${prefix}${i}`, rosterId: `${prefix}${i}` }));
const stored = (): RosterSnapshot => ({
  ...emptySnapshot(),
  users: [...kids('o1', 'h', 20), ...kids('o2', 'd', 20)],
  classes: [{ id: 'c1', organisationId: 'o2', sourcedId: 'cl1', title: '3A', grades: [], subjects: [], periods: [], academicSessionIds: [] }],
  enrolments: [
    { classId: 'c1', userId: 'd1', role: 'student', primary: false, sourcedId: 'e-1' },
    { classId: 'c1', userId: 'd2', role: 'student', primary: false, sourcedId: 'e-2' },
  ],
  memberships: [{ userId: 'd3', organisationId: 'o1', role: 'teacher' }],
});
/** A minimal tobedeleted row: only its sourcedId (1.2 gives no roles on a users row). */
const gone = (sourcedId: string) => person(sourcedId, '', '', 'student', { status: 'tobedeleted', roles: [], givenName: '', familyName: '' });

t.test('a minimal tobedeleted person, naming no school and without --org, leaves from whichever organisation holds them', async (t) => {
  const files = source({ format: 'oneroster-1.2', modes: { users: 'delta' }, users: [gone('d1'), gone('nobody')] });
  const ctx = context(ORGS);
  t.same(mapOrganisations(files, ctx).reached.map((o) => o.slug), ['dale', 'hill'], 'every organisation with a sourceId is reached; not one made by hand');
  const p = planRoster(files, stored(), ctx);
  t.same(p.errors, []);
  t.same(p.kinds.users.leaving, [{ organisation: 'dale', name: 'd1.k' }]);
  t.same(p.changes.holds, [{ userId: 'd1', hold: 'left', at: p.changes.holds[0]!.at }]);
  t.same(p.changes.enrolments.remove, [{ classId: 'c1', userId: 'd1' }], "the leaver's enrolments in their school go with them");
  t.same(p.organisations, ['dale'], 'the school they leave is covered by this import (its run, its retention)');
  t.match(p.notes, [/1 person\(s\) marked tobedeleted are not in Lanyard, nothing to do: nobody/], 'one that matches no one is said');
});

t.test('with --org, only that organisation is looked in', async (t) => {
  const files = source({ format: 'oneroster-1.2', modes: { users: 'delta' }, users: [gone('d1')] });
  const p = planRoster(files, stored(), context(ORGS, { target: HILL }));
  t.same(p.kinds.users.leaving, []);
  t.match(p.notes, [/marked tobedeleted are not in Lanyard/]);
});

t.test('a delta is still checked by the mass-removal guard in a school it reaches', async (t) => {
  const files = source({ format: 'oneroster-1.2', modes: { users: 'delta' }, users: ['d1', 'd2', 'd3'].map(gone) });
  t.match(planRoster(files, stored(), context(ORGS)).errors, [{ message: /3 of the 20 roster-managed users of dale would leave/ }]);
});

t.test('a minimal tobedeleted enrolment is the stored one with its sourcedId, in a school the files do not name', async (t) => {
  const files = source({
    modes: { enrollments: 'delta' },
    enrollments: [
      enrol('', '', 'student', { sourcedId: 'e-2', status: 'tobedeleted' }),
      enrol('cl1', 'd1', 'student', { sourcedId: 'e-1x', status: 'tobedeleted' }),
      enrol('', '', 'student', { sourcedId: 'e-9', status: 'tobedeleted' }),
    ],
  });
  const p = planRoster(files, stored(), context(ORGS));
  t.same(p.errors, []);
  t.same(p.changes.enrolments.remove, [{ classId: 'c1', userId: 'd1' }, { classId: 'c1', userId: 'd2' }], 'by sourcedId, and by class and person');
  t.same(p.kinds.enrollments.leaving.map((e) => e.organisation), ['dale', 'dale']);
  t.same(p.organisations, ['dale']);
  t.match(p.notes, [/1 enrolment\(s\) marked tobedeleted are not in Lanyard, nothing to do/]);
});

t.test('a 1.2 delta person without role rows keeps their school, type and memberships; their changed name applies', async (t) => {
  const d3: User = stored().users.find((u) => u.id === 'd3')!;
  const renamed = person('d3', 'd3.k', '', 'student', { roles: [], givenName: 'Dee', familyName: 'Three' });
  const files = source({ format: 'oneroster-1.2', modes: { users: 'delta' }, users: [renamed] });
  const p = planRoster(files, stored(), context(ORGS));
  t.same(p.errors, []);
  t.same(p.kinds.users.changed, [{
    organisation: 'dale', name: 'd3.k', fields: [{ field: 'given_name', from: 'D3', to: 'Dee' }, { field: 'family_name', from: 'K', to: 'Three' }],
  }]);
  t.match(p.changes.users, [{ id: 'd3', organisationId: 'o2', username: 'd3.k', givenName: 'Dee', familyName: 'Three', type: d3.type, rosterId: 'd3', sourceId: 'd3' }]);
  t.same(p.changes.memberships, { put: [], remove: [] }, 'the membership of hill is kept');
  t.same(p.organisations, ['dale']);

  const nobody = planRoster(source({ format: 'oneroster-1.2', modes: { users: 'delta' }, users: [person('zz', 'zed.z', '', 'student', { roles: [] })] }), stored(), context(ORGS));
  t.match(nobody.errors, [{ column: 'roles', message: 'a person Lanyard does not have yet needs a role at a school' }]);
});
