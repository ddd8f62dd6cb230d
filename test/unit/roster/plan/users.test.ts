import t from 'tap';
import type { RosterSnapshot, User } from '../../../../adapters/store.js';
import { planRoster } from '../../../../src/roster/plan/plan-roster.js';
import { changesNothing, countsOf } from '../../../../src/roster/plan/plan-types.js';
import type { SourceUser } from '../../../../src/roster/source.js';
import { applied, context, emptySnapshot, enrol, klass, NOW, org, person, school, source, user } from '../../../helpers/roster-plans.js';

const HILL = school('o1', 'hill', { sourceId: 'sch1' });
const snapshot = (users: User[], more: Partial<RosterSnapshot> = {}): RosterSnapshot => ({ ...emptySnapshot(), users, ...more });
const files = (users: SourceUser[], o: Parameters<typeof source>[0] = {}) => source({ orgs: [org('sch1', 'Hill')], users, ...o });
const plan = (users: SourceUser[], stored: User[], o: Parameters<typeof context>[1] = {}, more: Parameters<typeof source>[0] = {}) =>
  planRoster(files(users, more), snapshot(stored), context([HILL], o));

t.test('a bulk users file is authoritative for what it carries; what it does not carry is copied through', async (t) => {
  const stored = user('u1', 'o1', 'ava.k', {
    givenName: 'Ava', familyName: 'Kowalska', sourceId: 's1', rosterId: 's1', email: 'ava@old.example',
    googleEmail: 'ava@gmail.example', microsoftEmail: 'ava@ms.example', suspendedAt: '2026-01-01T00:00:00.000Z', sessionsValidAfter: 5,
  });
  const p = plan([person('s1', 'ava.k', 'sch1', 'student', { givenName: 'Ava', familyName: 'Kowalski', email: 'ava@new.example' })], [stored]);
  t.same(p.errors, []);
  t.same(p.kinds.users.changed, [{
    organisation: 'hill', name: 'ava.k',
    fields: [{ field: 'family_name', from: 'Kowalska', to: 'Kowalski' }, { field: 'email', from: 'ava@old.example', to: 'ava@new.example' }],
  }]);
  t.same(p.changes.users, [{
    id: 'u1', organisationId: 'o1', username: 'ava.k', givenName: 'Ava', familyName: 'Kowalski', type: 'student', email: 'ava@new.example',
    rosterId: 's1', sourceId: 's1',
  }], 'only the roster\'s fields: no matched Google or Microsoft account, no credential, suspension or session field at all');
  t.same(p.changes.holds, [], 'a suspension is not the roster\'s: no hold');
});

t.test('an empty email or roster id keeps the stored one (a record without roster_id never erases it)', async (t) => {
  const stored = user('u1', 'o1', 'ava.k', { sourceId: 's1', rosterId: 'R-77', email: 'ava@school.example' });
  const p = plan([person('s1', 'ava.k', 'sch1', 'student', { email: undefined })], [stored], { settings: { rosterIdFrom: 'none' } });
  t.same(p.errors, []);
  t.equal(countsOf(p.kinds.users).unchanged, 1);
  t.ok(changesNothing(p.changes));

  const fromIdentifier = plan([person('s1', 'ava.k', 'sch1', 'student', { identifier: undefined })], [stored], { settings: { rosterIdFrom: 'identifier' } });
  t.ok(changesNothing(fromIdentifier.changes), 'roster_id_from identifier, and the person has none: kept');
});

t.test('roster_id_from: sourcedId by default, identifier, or another column', async (t) => {
  const ava = person('s1', 'ava.k', 'sch1', 'student', { identifier: 'ID-1', extra: { 'userIds.SIS': 'SIS-9' } });
  t.equal(plan([ava], []).changes.users[0]!.rosterId, 's1');
  t.equal(plan([ava], [], { settings: { rosterIdFrom: 'identifier' } }).changes.users[0]!.rosterId, 'ID-1');
  t.equal(plan([ava], [], { settings: { rosterIdFrom: 'userIds.SIS' } }).changes.users[0]!.rosterId, 'SIS-9');
  t.equal(plan([ava], [], { settings: { rosterIdFrom: 'none' } }).changes.users[0]!.rosterId, undefined);
  const oneFile = source({ format: 'one-file', users: [person('ava.k', 'ava.k', 'hill', 'student', { type: 'student', extra: { roster_id: 'R-1' } })] });
  t.equal(planRoster(oneFile, emptySnapshot(), context([HILL], { target: HILL })).changes.users[0]!.rosterId, 'R-1', 'the one-file CSV\'s roster_id column is the claim');

  const noColumn = source({ format: 'one-file', users: [person('ava.k', 'ava.k', 'hill', 'student', { type: 'student' })] });
  const kept = planRoster(noColumn, snapshot([user('u1', 'o1', 'ava.k', { sourceId: 'ava.k', rosterId: 't1' })]), context([HILL], { target: HILL }));
  t.same(kept.errors, []);
  t.ok(changesNothing(kept.changes), 'a one-file CSV without a roster_id column keeps the stored roster id (not the username)');
  const emptyColumn = source({ format: 'one-file', users: [person('ava.k', 'ava.k', 'hill', 'student', { type: 'student', extra: { roster_id: '' } })] });
  t.equal(planRoster(emptyColumn, emptySnapshot(), context([HILL], { target: HILL })).changes.users[0]!.rosterId, undefined, 'nor for a new user');
});

t.test('types come from the role through roster.types; a school may map teachers to employee; an unknown role is an error', async (t) => {
  const people = [person('t1', 'ann.t', 'sch1', 'teacher'), person('a1', 'al.a', 'sch1', 'aide'), person('g1', 'gil.g', 'sch1', 'parent')];
  const types = (p: ReturnType<typeof plan>) => p.changes.users.map((u) => [u.username, u.type]);
  t.same(types(plan(people, [])), [['al.a', 'employee'], ['ann.t', 'teacher'], ['gil.g', 'guardian']]);
  t.same(types(plan(people, [], { settings: { types: { ...context([]).settings.types, teacher: 'employee' } } })),
    [['al.a', 'employee'], ['ann.t', 'employee'], ['gil.g', 'guardian']]);
  const wizard = person('w1', 'wiz.w', 'sch1', 'wizard');
  t.match(plan([wizard], []).errors, [{ file: 'users.csv', line: wizard.at.line, column: 'role', value: 'wizard', message: /has no user type: add it to "types"/ }]);
  t.match(plan([person('x', 'bad name', 'sch1')], []).errors, [{ column: 'username', value: 'bad name', message: /1–64 of/ }]);
});

t.test('a username changed in the source renames the user, matched by sourcedId (same id, so the same sub)', async (t) => {
  const p = plan([person('s1', 'ava.kowalski', 'sch1')], [user('u1', 'o1', 'ava.kowalska', { sourceId: 's1', givenName: 'Ava', familyName: 'Kowalski', rosterId: 's1' })]);
  t.same(p.kinds.users.changed, [{ organisation: 'hill', name: 'ava.kowalski', fields: [{ field: 'username', from: 'ava.kowalska', to: 'ava.kowalski' }] }]);
  t.same(p.changes.users.map((u) => [u.id, u.username]), [['u1', 'ava.kowalski']]);
  t.same(p.kinds.users.leaving, [], 'renamed, not leaving');
});

t.test('a user made by hand or by the JSON import is adopted by username; one the roster manages is not taken over', async (t) => {
  const p = plan([person('s1', 'Ava.K', 'sch1')], [user('u1', 'o1', 'ava.k', { givenName: 'Ava', familyName: 'K', rosterId: 'kept?' })]);
  t.same(p.errors, []);
  t.same(p.changes.users.map((u) => [u.id, u.username, u.sourceId, u.rosterId]), [['u1', 'Ava.K', 's1', 's1']], 'matched ignoring case; the source id set');
  t.match(p.kinds.users.changed[0]!.fields, [{ field: 'username' }, { field: 'roster_id' }, { field: 'source_id', from: undefined, to: 's1' }]);

  const taken = plan([person('s2', 'ava.k', 'sch1')], [user('u1', 'o1', 'ava.k', { sourceId: 's1', rosterHold: 'left' })], { allowMassRemoval: true });
  t.match(taken.errors, [{ column: 'username', value: 'ava.k', message: /belongs to another person in hill \(sourcedId s1, who left: `lanyard roster purge --all` deletes them\)/ }]);

  const renamedOnto = plan([person('s1', 'ava.k', 'sch1'), person('s2', 'bea.b', 'sch1')],
    [user('u1', 'o1', 'ava.a', { sourceId: 's1' }), user('u2', 'o1', 'ava.k')]);
  t.match(renamedOnto.errors, [{ column: 'username', value: 'ava.k', message: /belongs to another user in Lanyard/ }], 'a rename onto a name another user keeps');
  t.match(plan([person('s1', 'ava.k', 'sch1'), person('s2', 'AVA.K', 'sch1')], []).errors, [{ column: 'username', message: /another person of the files \(line \d+\)/ }]);
});

t.test('leavers: absent from a bulk users file → held left; users without a sourcedId never leave', async (t) => {
  const stored = [
    user('u1', 'o1', 'ava.k', { sourceId: 's1', rosterId: 's1' }), user('u2', 'o1', 'ben.b', { sourceId: 's2', rosterId: 's2' }),
    user('u3', 'o1', 'teacher'), // made by hand
    ...Array.from({ length: 20 }, (_, i) => user(`u${10 + i}`, 'o1', `kid${i}.k`, { sourceId: `k${i}`, rosterId: `k${i}` })),
  ];
  const people = stored.filter((u) => u.sourceId && u.id !== 'u2').map((u) => person(u.sourceId!, u.username, 'sch1'));
  const snap = snapshot(stored, {
    classes: [{ id: 'c1', organisationId: 'o1', sourcedId: 'cl1', title: '3A', grades: [], subjects: [], periods: [], academicSessionIds: [] }],
    enrolments: [{ classId: 'c1', userId: 'u2', role: 'student', primary: false }, { classId: 'c1', userId: 'u1', role: 'student', primary: false, sourcedId: 'e-cl1-s1' }],
    memberships: [{ userId: 'u2', organisationId: 'o7', role: 'student' }],
  });
  const p = planRoster(files(people, { classes: [klass('cl1', '3A', 'sch1')], enrollments: [enrol('cl1', 's1')] }), snap, context([HILL]));
  t.same(p.errors, []);
  t.same(p.kinds.users.leaving, [{ organisation: 'hill', name: 'ben.b' }]);
  t.same(p.changes.holds, [{ userId: 'u2', hold: 'left', at: NOW }]);
  t.same(p.changes.enrolments.remove, [{ classId: 'c1', userId: 'u2' }], 'their enrolment goes');
  t.same(p.kinds.enrollments.leaving, [{ organisation: 'hill', name: 'ben.b in 3A' }]);
  t.same(p.changes.memberships.remove, [{ userId: 'u2', organisationId: 'o7', role: 'student' }], 'and their memberships');
  t.notOk(p.changes.holds.some((h) => h.userId === 'u3'), 'the hand-made user stays');

  const again = planRoster(files(people, { classes: [klass('cl1', '3A', 'sch1')], enrollments: [enrol('cl1', 's1')] }),
    { ...snap, users: stored.map((u) => (u.id === 'u2' ? { ...u, rosterHold: 'left' as const, rosterHoldSince: NOW } : u)), enrolments: [snap.enrolments[1]!], memberships: [] },
    context([HILL]));
  t.same(again.kinds.users.leaving, [], 'already left: not leaving again');
  t.ok(changesNothing(again.changes), JSON.stringify(again.changes));
});

t.test('a leaver listed again is let back; enabledUser false holds them disabled, true lets them back', async (t) => {
  const left = user('u1', 'o1', 'ava.k', { sourceId: 's1', rosterId: 's1', givenName: 'Ava', familyName: 'K', rosterHold: 'left', rosterHoldSince: NOW });
  let p = plan([person('s1', 'ava.k', 'sch1')], [left]);
  t.same(p.changes.holds, [{ userId: 'u1', hold: undefined, at: NOW }]);
  t.same(p.kinds.users.changed, [{ organisation: 'hill', name: 'ava.k', fields: [{ field: 'hold', from: 'left', to: undefined }] }]);
  t.same(p.changes.users, [], 'nothing else written');

  const active = { ...left, rosterHold: undefined, rosterHoldSince: undefined };
  p = plan([person('s1', 'ava.k', 'sch1', 'student', { enabled: false })], [active]);
  t.same(p.changes.holds, [{ userId: 'u1', hold: 'disabled', at: NOW }]);
  p = plan([person('s1', 'ava.k', 'sch1', 'student', { enabled: false })], [{ ...left, rosterHold: 'disabled' }]);
  t.ok(changesNothing(p.changes), 'still disabled: unchanged');
  p = plan([person('s1', 'ava.k', 'sch1', 'student', { enabled: true })], [{ ...left, rosterHold: 'disabled' }]);
  t.same(p.changes.holds, [{ userId: 'u1', hold: undefined, at: NOW }], 'enabled again');
  p = plan([person('s1', 'ava.k', 'sch1', 'student', { enabled: false })], [left]);
  t.same(p.changes.holds, [{ userId: 'u1', hold: 'disabled', at: NOW }], 'a leaver back but disabled: held disabled');
  p = plan([person('s2', 'new.kid', 'sch1', 'student', { enabled: false })], []);
  t.same(p.changes.holds.map((h) => h.hold), ['disabled'], 'a new person disabled from the start');
});

t.test('the mass-removal guard: more than 10 % of a school leaving is refused, unless allowed', async (t) => {
  const stored = Array.from({ length: 30 }, (_, i) => user(`u${i}`, 'o1', `kid${i}.k`, { sourceId: `k${i}` }));
  stored.push(user('h1', 'o1', 'hand.made'), user('l1', 'o1', 'left.before', { sourceId: 'gone', rosterHold: 'left' }));
  const keep = (n: number) => stored.slice(0, n).map((u) => person(u.sourceId!, u.username, 'sch1'));
  t.same(plan(keep(27), stored).errors, [], '3 of 30 is 10 %: allowed');
  const refused = plan(keep(26), stored);
  t.same(refused.errors, [{
    file: 'users.csv', line: 0, column: '',
    message: '4 of the 30 roster-managed users of hill would leave (13.3 %, more than the 10 % allowed): is the export complete? If they really left, import again with --allow-mass-removal',
  }]);
  t.equal(countsOf(refused.kinds.users).leaving, 4, 'the plan still says who');
  const allowed = plan(keep(26), stored, { allowMassRemoval: true });
  t.same(allowed.errors, []);
  t.equal(allowed.changes.holds.length, 4);
  t.match(plan(keep(20), stored, { settings: { massRemovalPercent: 50 } }).errors, [], 'the share is configurable');
});

t.test('a delta: tobedeleted people leave; people it does not list are untouched', async (t) => {
  const stored = [user('u1', 'o1', 'ava.k', { sourceId: 's1' }), user('u2', 'o1', 'ben.b', { sourceId: 's2' }), user('u3', 'o1', 'cal.c', { sourceId: 's3' })];
  const delta = source({
    modes: { orgs: 'absent', users: 'delta' },
    users: [person('s2', 'ben.b', 'sch1', 'student', { status: 'tobedeleted' }), person('s4', 'dan.d', 'sch1')],
  });
  const p = planRoster(delta, snapshot(stored), context([HILL], { allowMassRemoval: true }));
  t.same(p.errors, []);
  t.same(p.organisations, ['hill'], 'the school is known by its sourcedId');
  t.same(p.kinds.users.leaving, [{ organisation: 'hill', name: 'ben.b' }]);
  t.same(p.kinds.users.added, [{ organisation: 'hill', name: 'dan.d' }]);
  t.same(p.changes.holds, [{ userId: 'u2', hold: 'left', at: NOW }]);
});

t.test('a changed role at a second school replaces the old membership; a re-import writes nothing, whatever order the store reads', async (t) => {
  const dale = school('o2', 'dale', { sourceId: 'sch2' });
  const orgs = [org('sch1', 'Hill'), org('sch2', 'Dale')];
  const tess = (role: string) => person('t1', 'tess.t', 'sch1', 'teacher', {
    roles: [{ orgSourcedId: 'sch1', role: 'teacher', primary: true }, { orgSourcedId: 'sch2', role, primary: false }],
  });
  const first = planRoster(source({ orgs, users: [tess('teacher')] }), emptySnapshot(), context([HILL, dale]));
  let state = applied(emptySnapshot(), [HILL, dale], first.changes);
  const id = first.changes.users[0]!.id;
  t.same(state.snapshot.memberships, [{ userId: id, organisationId: 'o2', role: 'teacher' }]);

  const changed = planRoster(source({ orgs, users: [tess('administrator')] }), state.snapshot, context(state.organisations));
  t.same(changed.errors, []);
  t.same(changed.changes.memberships, {
    put: [{ userId: id, organisationId: 'o2', role: 'administrator' }], remove: [{ userId: id, organisationId: 'o2', role: 'teacher' }],
  });
  t.same(changed.kinds.users.changed, [{ organisation: 'hill', name: 'tess.t', fields: [{ field: 'schools', from: 'dale (teacher)', to: 'dale (administrator)' }] }]);
  state = applied(state.snapshot, state.organisations, changed.changes);
  t.same(state.snapshot.memberships, [{ userId: id, organisationId: 'o2', role: 'administrator' }], 'only the new role is kept');

  // A store that kept both roles (as one keyed by role would), read in either order.
  const both = [{ userId: id, organisationId: 'o2', role: 'teacher' }, { userId: id, organisationId: 'o2', role: 'administrator' }];
  for (const memberships of [both, [...both].reverse()]) {
    const p = planRoster(source({ orgs, users: [tess('administrator')] }), { ...state.snapshot, memberships }, context(state.organisations));
    t.same(p.changes.memberships, { put: [], remove: [{ userId: id, organisationId: 'o2', role: 'teacher' }] }, 'the stale role goes');
    const again = applied({ ...state.snapshot, memberships }, state.organisations, p.changes);
    for (const order of [again.snapshot.memberships, [...again.snapshot.memberships].reverse()]) {
      const second = planRoster(source({ orgs, users: [tess('administrator')] }), { ...again.snapshot, memberships: order }, context(again.organisations));
      t.ok(changesNothing(second.changes), 'the same files again: nothing to write');
    }
  }
});
