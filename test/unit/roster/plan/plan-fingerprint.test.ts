import t from 'tap';
import type { User } from '../../../../adapters/store.js';
import { planFingerprint } from '../../../../src/roster/plan/plan-fingerprint.js';
import { planRoster } from '../../../../src/roster/plan/plan-roster.js';
import { context, emptySnapshot, org, person, school, source, user } from '../../../helpers/roster-plans.js';

/** A plan's fingerprint: what a person was shown of it, the mass-removal guard's errors apart. */

const HILL = school('o1', 'hill', { sourceId: 'sch1' });
const kids: User[] = Array.from({ length: 10 }, (_, i) => user(`u${i}`, 'o1', `kid${i}.k`, { sourceId: `k${i}`, rosterId: `k${i}` }));
const files = (n: number, family?: string) =>
  source({ orgs: [org('sch1', 'Hill')], users: kids.slice(0, n).map((u, i) => person(u.sourceId!, u.username, 'sch1', 'student', i === 0 && family ? { familyName: family } : {})) });
const stored = () => ({ ...emptySnapshot(), users: kids });

t.test('the guard\'s errors are kept apart, and do not change the fingerprint', async (t) => {
  const guarded = planRoster(files(5), stored(), context([HILL]));
  t.equal(guarded.massRemoval.length, 1, 'half the school leaving trips the guard');
  t.same(guarded.errors, guarded.massRemoval, 'and is among the errors');
  const allowed = planRoster(files(5), stored(), context([HILL], { allowMassRemoval: true }));
  t.same(allowed.massRemoval, []);
  t.same(allowed.errors, []);
  t.equal(planFingerprint(allowed), planFingerprint(guarded), 'confirming the removal applies the plan shown');
  t.equal(planFingerprint(structuredClone(guarded)), planFingerprint(guarded), 'a copy of the plan has its fingerprint');
});

t.test('another change, leaver or error is another fingerprint', async (t) => {
  const base = planFingerprint(planRoster(files(10), stored(), context([HILL])));
  t.equal(planFingerprint(planRoster(files(10), stored(), context([HILL]))), base, 'the same files and store: the same');
  t.not(planFingerprint(planRoster(files(10, 'Other'), stored(), context([HILL]))), base, 'a field changed');
  t.not(planFingerprint(planRoster(files(9), stored(), context([HILL]))), base, 'a leaver');
  const renamed = { ...stored(), users: kids.map((u, i) => (i === 0 ? { ...u, familyName: 'Renamed' } : u)) };
  t.not(planFingerprint(planRoster(files(10), renamed, context([HILL]))), base, 'the store changed under the same files');
});
