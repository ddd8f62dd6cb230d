import t from 'tap';
import type { Enrolment, RosterClass, RosterSnapshot, User } from '../../../../adapters/store.js';
import { planRoster } from '../../../../src/roster/plan/plan-roster.js';
import { changesNothing, countsOf } from '../../../../src/roster/plan/plan-types.js';
import { context, emptySnapshot, enrol, klass, org, person, school, source, term, user } from '../../../helpers/roster-plans.js';

const HILL = school('o1', 'hill', { sourceId: 'sch1' });
const cls = (id: string, sourcedId: string, title: string, o: Partial<RosterClass> = {}): RosterClass =>
  ({ id, organisationId: 'o1', sourcedId, title, grades: [], subjects: [], periods: [], academicSessionIds: [], ...o });
const ava = user('u1', 'o1', 'ava.k', { sourceId: 's1', rosterId: 's1' });
const ben = user('u2', 'o1', 'ben.b', { sourceId: 's2', rosterId: 's2' });
const stored = (o: Partial<RosterSnapshot> = {}): RosterSnapshot => ({ ...emptySnapshot(), users: [ava, ben], ...o });
const e = (classId: string, u: User, o: Partial<Enrolment> = {}): Enrolment =>
  ({ classId, userId: u.id, role: 'student', primary: false, sourcedId: `e-${classId === 'c1' ? 'cl1' : 'cl2'}-${u.sourceId}`, ...o });

t.test('an enrolment must name a class and a person in the files or in Lanyard', async (t) => {
  const files = source({
    orgs: [org('sch1', 'Hill')], classes: [klass('cl1', '3A', 'sch1')], users: [person('s1', 'ava.k', 'sch1')],
    enrollments: [enrol('cl1', 's1'), enrol('nope', 's1'), enrol('cl1', 'ghost'), enrol('cl1', 's2')],
  });
  const p = planRoster(files, stored(), context([HILL], { allowMassRemoval: true }));
  const [, noClass, noPerson, notInBulk] = files.enrollments;
  t.same(p.errors.map((x) => [x.line, x.column, x.value, x.message]), [
    [noClass!.at.line, 'classSourcedId', 'nope', 'names a class that is neither in classes.csv nor in Lanyard'],
    [noPerson!.at.line, 'userSourcedId', 'ghost', 'names a person who is neither in users.csv nor in Lanyard'],
    [notInBulk!.at.line, 'userSourcedId', 's2', 'names a person who is not in users.csv (a bulk file lists everyone)'],
  ]);

  const delta = source({
    modes: { users: 'delta', classes: 'absent', enrollments: 'delta' }, orgs: [org('sch1', 'Hill')], enrollments: [enrol('cl1', 's2', 'student', { schoolSourcedId: 'sch1' })],
  });
  const ok = planRoster(delta, stored({ classes: [cls('c1', 'cl1', '3A')] }), context([HILL]));
  t.same(ok.errors, [], 'a delta may name a class and a person Lanyard has');
  t.same(ok.changes.enrolments.put, [{ classId: 'c1', userId: 'u2', role: 'student', primary: false, sourcedId: 'e-cl1-s2', beginDate: undefined, endDate: undefined }]);
});

t.test('bulk files remove what they no longer list; a removed class takes its enrolments with it', async (t) => {
  const snap = stored({ classes: [cls('c1', 'cl1', '3A'), cls('c2', 'cl2', '3B')], enrolments: [e('c1', ava), e('c2', ben), e('c1', ben)] });
  const files = source({
    orgs: [org('sch1', 'Hill')], classes: [klass('cl1', '3A', 'sch1')], users: [person('s1', 'ava.k', 'sch1'), person('s2', 'ben.b', 'sch1')],
    enrollments: [enrol('cl1', 's1')],
  });
  const p = planRoster(files, snap, context([HILL], { allowMassRemoval: true })); // 1 of 2 classes: past the guard
  t.same(p.errors, []);
  t.same(p.kinds.classes.leaving, [{ organisation: 'hill', name: '3B' }]);
  t.same(p.changes.classes.remove, ['c2']);
  t.same(p.kinds.enrollments.leaving.map((x) => x.name), ['ben.b in 3A', 'ben.b in 3B']);
  t.same(p.changes.enrolments.remove, [{ classId: 'c1', userId: 'u2' }], 'the removed class\'s enrolment goes with it (the store)');
  t.equal(p.kinds.enrollments.unchanged, 1);
});

t.test('a delta: tobedeleted classes and enrolments go; the rest stays; changed fields are listed', async (t) => {
  const snap = stored({ classes: [cls('c1', 'cl1', '3A'), cls('c2', 'cl2', '3B')], enrolments: [e('c1', ava), e('c2', ben), e('c1', ben)] });
  const delta = source({
    modes: { orgs: 'absent', classes: 'delta', users: 'absent', enrollments: 'delta' },
    classes: [klass('cl2', '3B', 'sch1', { status: 'tobedeleted' }), klass('cl1', '3A (Maths)', 'sch1', { periods: ['1', '2'] })],
    enrollments: [enrol('cl1', 's2', 'student', { status: 'tobedeleted' }), enrol('cl1', 's1', 'aide')],
  });
  const p = planRoster(delta, snap, context([HILL], { allowMassRemoval: true }));
  t.same(p.errors, []);
  t.same(p.kinds.classes.changed, [{ organisation: 'hill', name: '3A (Maths)', fields: [{ field: 'title', from: '3A', to: '3A (Maths)' }, { field: 'periods', from: undefined, to: '1, 2' }] }]);
  t.same(p.changes.classes.remove, ['c2']);
  t.same(p.kinds.enrollments.changed, [{ organisation: 'hill', name: 'ava.k in 3A (Maths)', fields: [{ field: 'role', from: 'student', to: 'aide' }] }]);
  t.same(p.changes.enrolments.remove, [{ classId: 'c1', userId: 'u2' }]);
  t.same(p.kinds.users, { added: [], changed: [], unchanged: 0, leaving: [] }, 'no users file: nobody leaves');
});

t.test('a class keeps its stored course title when the export has no courses file; a term must exist', async (t) => {
  const snap = stored({ classes: [cls('c1', 'cl1', '3A', { courseSourcedId: 'co1', courseTitle: 'Maths', courseCode: 'M3' })] });
  const noCourses = source({ orgs: [org('sch1', 'Hill')], classes: [klass('cl1', '3A', 'sch1', { courseSourcedId: 'co1' })], modes: { enrollments: 'absent' } });
  t.ok(changesNothing(planRoster(noCourses, snap, context([HILL])).changes), 'course title and code kept');

  const courses = source({
    orgs: [org('sch1', 'Hill')], classes: [klass('cl1', '3A', 'sch1', { courseSourcedId: 'co1' })],
    courses: [{ sourcedId: 'co1', status: 'active', title: 'Mathematics', courseCode: 'M3', grades: [], subjects: [], at: { file: 'courses.csv', line: 2 } }],
  });
  t.same(planRoster(courses, snap, context([HILL])).kinds.classes.changed[0]!.fields, [{ field: 'course_title', from: 'Maths', to: 'Mathematics' }]);

  const badTerm = source({ orgs: [org('sch1', 'Hill')], academicSessions: [term('t1', 'Autumn')], classes: [klass('cl1', '3A', 'sch1', { termSourcedIds: ['t1', 't9'] })] });
  t.match(planRoster(badTerm, stored(), context([HILL])).errors, [{ column: 'termSourcedIds', value: 't9', message: /academic session that is neither/ }]);
});

t.test('academic sessions: added to each school, changed field by field, removed when a bulk file drops them', async (t) => {
  const snap = stored({ academicSessions: [{ id: 'a1', organisationId: 'o1', sourcedId: 't1', title: 'Autumn', type: 'term' }, { id: 'a2', organisationId: 'o1', sourcedId: 't2', title: 'Spring', type: 'term' }] });
  const files = source({ orgs: [org('sch1', 'Hill')], academicSessions: [term('t1', 'Autumn term', { startDate: '2026-09-01' }), term('t3', 'Summer')] });
  const p = planRoster(files, snap, context([HILL]));
  t.same(countsOf(p.kinds.academicSessions), { added: 1, changed: 1, unchanged: 0, leaving: 1 });
  t.same(p.kinds.academicSessions.changed[0]!.fields, [{ field: 'title', from: 'Autumn', to: 'Autumn term' }, { field: 'start_date', from: undefined, to: '2026-09-01' }]);
  t.same(p.changes.academicSessions.remove, ['a2']);
});
