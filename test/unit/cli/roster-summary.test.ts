import t from 'tap';
import { errorLine, rosterJson, summaryLines } from '../../../src/cli/roster-summary.js';
import type { ImportResult } from '../../../src/roster/import-roster.js';
import { planRoster } from '../../../src/roster/plan/plan-roster.js';
import { context, emptySnapshot, org, person, school, source, user } from '../../helpers/roster-plans.js';

const HILL = school('o1', 'hill', { sourceId: 'sch1' });
const stored = [
  user('u1', 'o1', 'ava.k', { sourceId: 's1', rosterId: 's1', familyName: 'Kowalska' }),
  ...Array.from({ length: 25 }, (_, i) => user(`u${i + 10}`, 'o1', `kid${i}.k`, { sourceId: `k${i}`, rosterId: `k${i}` })),
];

const result = (users = [person('s1', 'ava.k', 'sch1', 'student', { familyName: 'Kowalski' })], o = {}): ImportResult => ({
  plan: planRoster(source({ orgs: [org('sch1', 'Hill')], users }), { ...emptySnapshot(), users: stored }, context([HILL], { allowMassRemoval: true, ...o })),
  applied: false, purged: [], format: 'oneroster-1.1',
});

t.test('the summary: counts per kind, the field changes, who leaves (the first 20), the outcome', async (t) => {
  const lines = summaryLines(result(), { path: 'export.zip', dryRun: true });
  t.equal(lines[0], 'export.zip (oneroster-1.1) for hill:');
  t.match(lines.join('\n'), /users\s+0\s+1\s+0\s+25\n/);
  t.ok(lines.includes('  user ava.k: family_name "Kowalska" → "Kowalski"'), lines.join('\n'));
  t.ok(lines.includes('leaving (25):'));
  t.ok(lines.includes('  … and 5 more'), 'long lists are cut');
  t.equal(lines.at(-1), 'dry run: nothing was written');
  const district = { ...result(), plan: { ...result().plan, organisations: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] } };
  t.equal(summaryLines(district, { path: 'x', dryRun: true })[0], 'x (oneroster-1.1) for 7 organisations (a, b, c, d, e, …):', 'a district\'s schools are not all named');
});

t.test('errors: file:line column value — message, every one; the outcome says nothing was written', async (t) => {
  t.equal(errorLine({ file: 'users.csv', line: 7, column: 'role', value: 'wizard', message: 'no type' }), 'users.csv:7 role "wizard" — no type');
  t.equal(errorLine({ file: 'users.csv', line: 0, column: '', message: 'too many leave' }), 'users.csv — too many leave');
  const refused = result(undefined, { allowMassRemoval: false });
  const lines = summaryLines(refused, { path: 'export.zip', dryRun: false });
  t.match(lines.join('\n'), /errors \(1\):\n {2}users\.csv — 25 of the 26 roster-managed users of hill would leave/);
  t.equal(lines.at(-1), 'not applied: 1 error; nothing was written');
});

t.test('--json: counts for every kind, the errors, applied', async (t) => {
  const json = rosterJson(result(undefined, { allowMassRemoval: false }));
  t.same(Object.keys(json), ['counts', 'errors', 'applied']);
  t.same(Object.keys(json.counts), ['users', 'classes', 'enrollments', 'organisations', 'academicSessions']);
  t.same(json.counts.users, { added: 0, changed: 1, unchanged: 0, leaving: 25 });
  t.same(json.errors.map((e) => Object.keys(e)), [['file', 'line', 'column', 'message']]);
  t.equal(json.applied, false);
});
