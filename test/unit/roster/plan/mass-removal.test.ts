import t from 'tap';
import type { RosterClass, RosterSnapshot, User } from '../../../../adapters/store.js';
import { planRoster } from '../../../../src/roster/plan/plan-roster.js';
import { context, emptySnapshot, klass, org, person, school, source, user } from '../../../helpers/roster-plans.js';

/** The mass-removal guard beyond leavers: people disabled by enabledUser false, and classes removed. */

const HILL = school('o1', 'hill', { sourceId: 'sch1' });
const kids: User[] = Array.from({ length: 20 }, (_, i) => user(`u${i}`, 'o1', `kid${i}.k`, { sourceId: `k${i}`, rosterId: `k${i}` }));
const classes: RosterClass[] = Array.from({ length: 10 }, (_, i) =>
  ({ id: `c${i}`, organisationId: 'o1', sourcedId: `cl${i}`, title: `Class ${i}`, grades: [], subjects: [], periods: [], academicSessionIds: [] }));
const snapshot = (): RosterSnapshot => ({ ...emptySnapshot(), users: kids, classes });
const people = (disabled: number) => kids.map((u, i) => person(u.sourceId!, u.username, 'sch1', 'student', { enabled: i >= disabled }));
const sourceClasses = (n: number) => classes.slice(0, n).map((c) => klass(c.sourcedId, c.title, 'sch1'));

t.test('enabledUser false for more than the share of a school is refused, with its counts, unless allowed', async (t) => {
  const files = (disabled: number) => source({ orgs: [org('sch1', 'Hill')], users: people(disabled) });
  t.same(planRoster(files(2), snapshot(), context([HILL])).errors, [], '2 of 20 is 10 %: allowed');
  const refused = planRoster(files(3), snapshot(), context([HILL]));
  t.same(refused.errors, [{
    file: 'users.csv', line: 0, column: '',
    message: '3 of the 20 roster-managed users of hill would be disabled (enabledUser false; 15 %, more than the 10 % allowed): '
      + 'is the export right? If they really may not sign in, import again with --allow-mass-removal',
  }]);
  t.same(planRoster(files(3), snapshot(), context([HILL], { allowMassRemoval: true })).errors, [], '--allow-mass-removal');
  const already = { ...snapshot(), users: kids.map((u, i) => (i < 3 ? { ...u, rosterHold: 'disabled' as const } : u)) };
  t.same(planRoster(files(3), already, context([HILL])).errors, [], 'only people newly disabled count');
});

t.test('a classes file removing more than the share of a school\'s classes is refused, unless allowed', async (t) => {
  const files = (n: number) => source({ orgs: [org('sch1', 'Hill')], classes: sourceClasses(n) });
  t.same(planRoster(files(9), snapshot(), context([HILL])).errors, [], '1 of 10 is 10 %: allowed');
  const refused = planRoster(files(7), snapshot(), context([HILL]));
  t.same(refused.errors, [{
    file: 'classes.csv', line: 0, column: '',
    message: '3 of the 10 classes of hill would be removed (30 %, more than the 10 % allowed): is the classes file complete? If they really ended, import again with --allow-mass-removal',
  }]);
  t.same(refused.changes.classes.remove, ['c7', 'c8', 'c9'], 'the plan still says which');
  t.same(planRoster(files(7), snapshot(), context([HILL], { allowMassRemoval: true })).errors, []);
  const delta = source({ modes: { classes: 'delta' }, classes: classes.slice(0, 5).map((c) => klass(c.sourcedId, c.title, 'sch1', { status: 'tobedeleted' })) });
  t.match(planRoster(delta, snapshot(), context([HILL])).errors, [{ message: /^5 of the 10 classes of hill would be removed/ }], 'a delta too');
});
