import t from 'tap';
import { planRoster } from '../../../../src/roster/plan/plan-roster.js';
import { changesNothing, countsOf, type Plan, PLAN_KINDS } from '../../../../src/roster/plan/plan-types.js';
import type { RosterSource } from '../../../../src/roster/source.js';
import {
  applied, context, emptySnapshot, enrol, klass, org, person, school, source, term,
} from '../../../helpers/roster-plans.js';

/** The first school: 30 pupils in 2 classes, 3 teachers, one term. */
function onboarding(): RosterSource {
  const users = [
    person('t1', 'ann.teach', 'sch1', 'teacher', { email: 'ann@school.example' }),
    person('t2', 'bob.teach', 'sch1', 'teacher'),
    person('t3', 'cat.teach', 'sch1', 'teacher'),
  ];
  for (let i = 1; i <= 30; i += 1) users.push(person(`p${i}`, `pupil${i}.kid`, 'sch1'));
  const enrollments = [enrol('c1', 't1', 'teacher', { primary: true }), enrol('c2', 't2', 'teacher', { primary: true }), enrol('c2', 't3', 'teacher')];
  for (let i = 1; i <= 30; i += 1) enrollments.push(enrol(i <= 15 ? 'c1' : 'c2', `p${i}`));
  return source({
    orgs: [org('sch1', 'Hill Primary School')],
    academicSessions: [term('y1', '2026/27')],
    classes: [klass('c1', '3A', 'sch1', { termSourcedIds: ['y1'] }), klass('c2', '3B', 'sch1', { termSourcedIds: ['y1'] })],
    users, enrollments,
  });
}

const counts = (plan: Plan) => Object.fromEntries(PLAN_KINDS.map((k) => [k, countsOf(plan.kinds[k])]));

t.test('onboarding a school: one new organisation, its term, classes, people and enrolments, no errors', async (t) => {
  const plan = planRoster(onboarding(), emptySnapshot(), context([]));
  t.same(plan.errors, []);
  t.same(counts(plan), {
    organisations: { added: 1, changed: 0, unchanged: 0, leaving: 0 },
    academicSessions: { added: 1, changed: 0, unchanged: 0, leaving: 0 },
    classes: { added: 2, changed: 0, unchanged: 0, leaving: 0 },
    users: { added: 33, changed: 0, unchanged: 0, leaving: 0 },
    enrollments: { added: 33, changed: 0, unchanged: 0, leaving: 0 },
  });
  t.same(plan.organisations, ['hill-primary-school'], 'the slug comes from the name');
  const [o] = plan.changes.organisations;
  t.same(o, { id: o!.id, slug: 'hill-primary-school', name: 'Hill Primary School', sourceId: 'sch1' });
  t.ok(plan.changes.users.every((u) => u.organisationId === o!.id), 'everyone in the new school');
  const ann = plan.changes.users.find((u) => u.username === 'ann.teach')!;
  t.same({ type: ann.type, email: ann.email, rosterId: ann.rosterId, sourceId: ann.sourceId }, { type: 'teacher', email: 'ann@school.example', rosterId: 't1', sourceId: 't1' });
  t.equal(plan.changes.users.find((u) => u.username === 'pupil1.kid')!.type, 'student');
  t.equal(plan.changes.holds.length, 0, 'nobody held');
  t.same(plan.changes.classes.put.map((c) => [c.title, c.academicSessionIds]), [['3A', ['y1']], ['3B', ['y1']]]);
  const ids = new Map(plan.changes.users.map((u) => [u.username, u.id]));
  t.ok(plan.changes.enrolments.put.some((e) => e.userId === ids.get('ann.teach') && e.role === 'teacher' && e.primary), 'the teacher teaches 3A');
});

t.test('importing the same files again changes nothing: every count unchanged, nothing to write', async (t) => {
  const first = planRoster(onboarding(), emptySnapshot(), context([]));
  const after = applied(emptySnapshot(), [], first.changes);
  const again = planRoster(onboarding(), after.snapshot, context(after.organisations));
  t.same(again.errors, []);
  t.ok(changesNothing(again.changes), JSON.stringify(again.changes).slice(0, 500));
  for (const kind of PLAN_KINDS) {
    const c = countsOf(again.kinds[kind]);
    t.same({ ...c, unchanged: 0 }, { added: 0, changed: 0, unchanged: 0, leaving: 0 }, `${kind}: nothing added, changed or leaving`);
  }
  t.equal(again.kinds.users.unchanged, 33);
  t.equal(again.kinds.enrollments.unchanged, 33);
});

t.test('the plan is deterministic: the same input gives the same plan, and the order of the rows does not matter', async (t) => {
  const a = planRoster(onboarding(), emptySnapshot(), context([]));
  const b = planRoster(onboarding(), emptySnapshot(), context([]));
  t.same(a, b, 'twice the same');
  const shuffled = onboarding();
  shuffled.users.reverse();
  shuffled.enrollments.reverse();
  shuffled.classes.reverse();
  const c = planRoster(shuffled, emptySnapshot(), context([]));
  t.same(c.kinds.users, a.kinds.users, 'users listed in the same order');
  t.same(c.kinds.enrollments, a.kinds.enrollments, 'enrolments listed in the same order');
  t.same(c.changes.users.map((u) => u.username), a.changes.users.map((u) => u.username), 'users written in the same order');
  const names = a.kinds.users.added.map((n) => n.name);
  t.same(names, [...names].sort(), 'sorted by name');
});

t.test('organisations: matched by sourcedId, else by the slug of their name; never renamed', async (t) => {
  const bySource = school('o1', 'hill', { name: 'Hill (our name)', sourceId: 'sch1' });
  let plan = planRoster(onboarding(), emptySnapshot(), context([bySource]));
  t.same(countsOf(plan.kinds.organisations), { added: 0, changed: 0, unchanged: 1, leaving: 0 });
  t.same(plan.changes.organisations, [], 'the name Lanyard has is kept');
  t.same(plan.organisations, ['hill']);

  const bySlug = school('o2', 'hill-primary-school');
  plan = planRoster(onboarding(), emptySnapshot(), context([bySlug]));
  t.same(plan.kinds.organisations.changed, [{ organisation: 'hill-primary-school', name: 'hill-primary-school', fields: [{ field: 'source_id', from: undefined, to: 'sch1' }] }]);
  t.same(plan.changes.organisations, [{ id: 'o2', slug: 'hill-primary-school', name: 'hill-primary-school', sourceId: 'sch1' }]);

  const otherSchool = school('o3', 'hill-primary-school', { sourceId: 'elsewhere' });
  plan = planRoster(onboarding(), emptySnapshot(), context([otherSchool]));
  t.same(plan.changes.organisations.map((o) => o.slug), ['hill-primary-school-2'], 'a slug another school has is not taken');
});

t.test("organisations: a school whose name makes one of the console's own words gets another slug", async (t) => {
  const source = onboarding();
  source.orgs[0]!.name = 'Account';
  const plan = planRoster(source, emptySnapshot(), context([]));
  t.same(plan.changes.organisations.map((o) => o.slug), ['account-2'], '/school/account is the console\'s account page');
});

t.test('--org puts a single-school export, or a one-file CSV, into that organisation', async (t) => {
  const target = school('o9', 'demo-school');
  let plan = planRoster(onboarding(), emptySnapshot(), context([target], { target }));
  t.same(plan.errors, []);
  t.same(plan.organisations, ['demo-school']);
  t.same(plan.changes.organisations, [{ id: 'o9', slug: 'demo-school', name: 'demo-school', sourceId: 'sch1' }], 'records the school\'s sourcedId');
  t.ok(plan.changes.users.every((u) => u.organisationId === 'o9'));

  const oneFile = source({ format: 'one-file', users: [person('ava', 'ava.k', '', 'student', { type: 'student' })] });
  plan = planRoster(oneFile, emptySnapshot(), context([target], { target }));
  t.same(plan.errors, []);
  t.same(plan.changes.organisations, [], 'a one-file CSV names no school: nothing to record');
  t.same(plan.changes.users.map((u) => [u.organisationId, u.username]), [['o9', 'ava.k']]);

  plan = planRoster(oneFile, emptySnapshot(), context([target]));
  t.match(plan.errors, [{ message: /names no school: give --org SLUG/ }], 'without --org it has nowhere to go');

  const two = source({ orgs: [org('a', 'A School'), org('b', 'B School')], users: [person('x', 'x.y', 'a')] });
  plan = planRoster(two, emptySnapshot(), context([target], { target }));
  t.match(plan.errors, [{ column: 'sourcedId', message: /this export has 2 schools \(A School, B School\); leave out --org/ }]);

  const elsewhere = school('o5', 'hill', { sourceId: 'sch1' });
  plan = planRoster(onboarding(), emptySnapshot(), context([target, elsewhere], { target }));
  t.match(plan.errors, [{ value: 'sch1', message: /already the organisation hill in Lanyard, not demo-school/ }]);
});

t.test('a district: each school an organisation, the district one when it has people; a person in two schools is a member of the other', async (t) => {
  const district = source({
    orgs: [org('d', 'North District', { type: 'district' }), org('s1', 'North High', { parentSourcedId: 'd' }), org('s2', 'North Middle', { parentSourcedId: 'd' })],
    users: [
      person('u1', 'amy.pupil', 's1'),
      person('u2', 'ben.teach', 's2', 'teacher', { roles: [{ orgSourcedId: 's2', role: 'teacher', primary: true }, { orgSourcedId: 's1', role: 'aide', primary: false }] }),
      person('u3', 'cal.admin', 'd', 'administrator'),
    ],
  });
  const plan = planRoster(district, emptySnapshot(), context([]));
  t.same(plan.errors, []);
  t.same(plan.organisations, ['north-district', 'north-high', 'north-middle']);
  const orgId = new Map(plan.changes.organisations.map((o) => [o.slug, o.id]));
  const ben = plan.changes.users.find((u) => u.username === 'ben.teach')!;
  t.equal(ben.organisationId, orgId.get('north-middle'), 'own school: the first primary role');
  t.same(plan.changes.memberships.put, [{ userId: ben.id, organisationId: orgId.get('north-high'), role: 'aide' }]);
  t.equal(plan.changes.users.find((u) => u.username === 'cal.admin')!.type, 'admin');

  const withoutPeople = source({ orgs: [org('d', 'North District', { type: 'district' }), org('s1', 'North High')], users: [person('u1', 'amy.pupil', 's1')] });
  t.same(planRoster(withoutPeople, emptySnapshot(), context([])).organisations, ['north-high'], 'a district with no people of its own is no organisation');
});

t.test('the reader\'s errors and notes come first, and a plan with errors still counts', async (t) => {
  const s = onboarding();
  s.errors.push({ file: 'users.csv', line: 7, column: 'role', value: 'wizard', message: 'not a OneRoster role' });
  s.notes.push('demographics.csv is not read');
  const plan = planRoster(s, emptySnapshot(), context([]));
  t.same(plan.errors[0], { file: 'users.csv', line: 7, column: 'role', value: 'wizard', message: 'not a OneRoster role' });
  t.same(plan.notes, ['demographics.csv is not read']);
  t.equal(countsOf(plan.kinds.users).added, 33);
});
