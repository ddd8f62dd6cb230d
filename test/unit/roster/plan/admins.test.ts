import t from 'tap';
import type { RosterSnapshot, User } from '../../../../adapters/store.js';
import { planRoster } from '../../../../src/roster/plan/plan-roster.js';
import { context, emptySnapshot, org, person, school, source, user } from '../../../helpers/roster-plans.js';

const HILL = school('o1', 'hill', { sourceId: 'sch1' });
const DALE = school('o2', 'dale', { sourceId: 'sch2' });
const snapshot = (users: User[]): RosterSnapshot => ({ ...emptySnapshot(), users });
const ORGS = [org('sch1', 'Hill'), org('sch2', 'Dale')];

t.test("the plan says who is an administrator where, for everyone whose roles the files give", async (t) => {
  const head = person('s1', 'h.head', 'sch1', 'administrator', { roles: [{ orgSourcedId: 'sch1', role: 'administrator', primary: true }, { orgSourcedId: 'sch2', role: 'teacher', primary: false }] });
  const principal = person('s2', 'p.rincipal', 'sch2', 'principal');
  const district = person('s3', 'd.istrict', 'sch1', 'districtAdministrator');
  const teacher = person('s4', 't.each', 'sch1', 'teacher');
  const p = planRoster(source({ orgs: ORGS, users: [head, principal, district, teacher] }), snapshot([]), context([HILL, DALE]));
  t.same(p.errors, []);
  const ids = new Map(p.changes.users.map((u) => [u.username, u.id]));
  t.same(p.admins.people.map((a) => [a.username, a.organisationIds]).sort(), [
    ['d.istrict', ['o1']], ['h.head', ['o1']], ['p.rincipal', ['o2']], ['t.each', []],
  ], "1.1's administrator and 1.2's administration roles, at the school of that role only; a teacher at none");
  t.equal(p.admins.people.find((a) => a.username === 'h.head')?.userId, ids.get('h.head'), 'by their Lanyard id');
  t.same(p.admins.whole, ['o1', 'o2'], 'a bulk users file lists each covered school\'s whole staff');
  t.same(p.admins.leaving, []);
});

t.test('the one-file CSV: only the type admin makes one; staff who teach no class do not', async (t) => {
  const row = (username: string, type: string) => person(username, username, 'hill', type === 'admin' ? 'administrator' : type === 'employee' ? 'administrator' : type, { type });
  const p = planRoster(source({ format: 'one-file', users: [row('h.head', 'admin'), row('office', 'employee'), row('t.each', 'teacher')] }), emptySnapshot(),
    context([HILL], { target: HILL }));
  t.same(p.errors, []);
  t.same(p.admins.people.map((a) => [a.username, a.organisationIds]).sort(), [['h.head', ['o1']], ['office', []], ['t.each', []]]);
});

t.test('a delta: leavers, and people without role rows left undecided; no school is listed whole', async (t) => {
  const stored = [user('u1', 'o1', 'h.head', { sourceId: 's1' }), user('u2', 'o1', 'c.al', { sourceId: 's2' }), user('u3', 'o1', 'b.en', { sourceId: 's3' })];
  const gone = person('s2', 'c.al', 'sch1', 'student', { status: 'tobedeleted' });
  const kept = person('s3', 'b.en', 'sch1', 'student', { roles: [], familyName: 'Renamed' });
  const head = person('s1', 'h.head', 'sch1', 'administrator');
  const p = planRoster(source({ orgs: ORGS, users: [head, gone, kept], modes: { users: 'delta' } }), snapshot(stored), context([HILL, DALE], { allowMassRemoval: true }));
  t.same(p.errors, []);
  t.same(p.admins.people.map((a) => [a.userId, a.organisationIds]), [['u1', ['o1']]], 'a person without role rows keeps what they have');
  t.same(p.admins.leaving, ['u2']);
  t.same(p.admins.whole, [], 'a delta lists no school whole');
});
