import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { Store } from '../../adapters/store.js';
import { projectRoot } from '../../src/package-files.js';
import { assertSession, signInAs } from '../helpers/account-session.js';
import { lanyard, type Run } from '../helpers/cli.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { PUPIL } from '../helpers/sign-in.js';

/**
 * `lanyard roster import` (docs/rostering.md), run as the real command against the store of a running
 * Lanyard, on SQLite and on Redis: the onboarding of a school in one command, the plan, dry runs, --json,
 * re-imports that write nothing, leavers whose sessions and tokens end, the mass-removal guard, errors.
 */

const FIXTURES = join(projectRoot, 'test/fixtures/roster');

/** The issue's school: 30 pupils in 3A and 3B, 3 teachers; `extra` rows after them (the demo's pupil…). */
function onboardingCsv(o: { pupils?: number; extra?: string[]; family?: string } = {}): string {
  const rows = ['username,given_name,family_name,type,class,email'];
  rows.push('t.one,Tess,One,teacher,3A,tess@school.example', 't.two,Tom,Two,teacher,3B,', 't.three,Tia,Three,teacher,3A;3B,');
  for (let i = 1; i <= (o.pupils ?? 30); i += 1) rows.push(`p${String(i).padStart(2, '0')},Pupil,${i === 1 && o.family ? o.family : `Number${i}`},student,${i <= 15 ? '3A' : '3B'},`);
  rows.push(...(o.extra ?? []));
  const path = join(mkdtempSync(join(tmpdir(), 'lanyard-roster-')), 'school.csv');
  writeFileSync(path, `${rows.join('\r\n')}\r\n`);
  return path;
}
const DEMO_PUPIL = 'pupil,Pip,Pupil,student,3A,';

const KINDS = new Set(['organisation', 'user', 'retired_user', 'credential', 'badge', 'academic_session', 'class', 'enrolment', 'membership', 'roster_import']);

/** What the store holds of organisations, people and the roster, as sorted JSON lines. */
async function state(store: Store): Promise<string[]> {
  const lines: string[] = [];
  for await (const e of store.exportEntries()) if (KINDS.has(e.kind)) lines.push(JSON.stringify(e));
  return lines.sort();
}

interface Backend { name: string; start(t: Test): Promise<{ lanyard: Lanyard; env: Record<string, string> }> }

const BACKENDS: Backend[] = [
  {
    name: 'SQLite',
    start: async (t) => {
      const server = await startLanyard(t);
      return { lanyard: server, env: { LANYARD_STORE: `sqlite:${join(server.dir, 'lanyard.db')}` } };
    },
  },
  {
    name: 'Redis',
    start: async (t) => {
      const redis = await startRedis(t, { aof: false });
      const env = redisStoreEnv(redis.url, 'roster');
      return { lanyard: await startLanyard(t, { env }), env };
    },
  },
];

const json = (r: Run) => JSON.parse(r.stdout) as {
  counts: Record<string, { added: number; changed: number; unchanged: number; leaving: number }>;
  errors: { file: string; line: number; column: string; message: string }[];
  applied: boolean;
};

for (const backend of BACKENDS) {
  t.test(`${backend.name}: a school onboarded in one command; dry run, --json, re-import, leavers, the guard, errors`, async (t) => {
    const { lanyard: server, env } = await backend.start(t);
    const roster = (...args: string[]) => lanyard(['roster', 'import', ...args], env);
    const before = await state(server.store);

    const dry = await roster(onboardingCsv(), '--org', 'demo-school', '--dry-run');
    t.equal(dry.code, 0, dry.stderr);
    t.match(dry.stdout, /users\s+33\s+0\s+\d+\s+0/);
    t.match(dry.stdout, /dry run: nothing was written/);
    t.same(await state(server.store), before, '--dry-run writes nothing');

    const onboard = await roster(onboardingCsv(), '--org', 'demo-school', '--json');
    t.equal(onboard.code, 0, onboard.stderr);
    t.equal(onboard.stderr, '', '--json: no progress on standard error either');
    const result = json(onboard);
    t.same(Object.keys(result), ['counts', 'errors', 'applied'], 'exactly one JSON object: counts, errors, applied');
    t.same(result.counts.users, { added: 33, changed: 0, unchanged: 0, leaving: 0 });
    t.same(result.counts.classes, { added: 2, changed: 0, unchanged: 0, leaving: 0 });
    t.same(result.counts.enrollments, { added: 34, changed: 0, unchanged: 0, leaving: 0 }, '30 pupils, and the teachers of their classes');
    t.same(result.counts.organisations, { added: 0, changed: 0, unchanged: 1, leaving: 0 });
    t.same([result.errors, result.applied], [[], true]);
    const classes = await server.store.listClasses((await server.store.findOrganisation('demo-school'))!.id);
    t.same(classes.map((c) => [c.title, c.pupils, c.teachers.map((x) => x.givenName).sort()]), [['3A', 15, ['Tess', 'Tia']], ['3B', 15, ['Tia', 'Tom']]]);
    t.equal((await server.store.listRosterImports(10)).length, 1, 'the import is recorded');
    const history = await lanyard(['roster', 'history', '--json'], env);
    const [run] = JSON.parse(history.stdout) as { by: string; format: string; digest: string; organisations: string[]; counts: Record<string, { added: number }> }[];
    t.match(run, { by: /^cli:/, format: 'one-file', digest: /^[0-9a-f]{64}$/, organisations: ['demo-school'] }, 'roster history: who, the format, the digest, the school');
    t.equal(run!.counts.users!.added, 33, 'and the counts');
    const table = await lanyard(['roster', 'history'], env);
    t.match(table.stdout, /^WHEN \(UTC\) +BY +FORMAT +DIGEST +ORGANISATIONS +CHANGED.*\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +cli:\S+ +one-file +[0-9a-f]{12} +demo-school +.*users \+33 ~0 -0/, 'and as a table');

    const applied = await state(server.store);
    const again = await roster(onboardingCsv(), '--org', 'demo-school');
    t.equal(again.code, 0, again.stderr);
    t.match(again.stdout, /users\s+0\s+0\s+33\s+0/);
    t.match(again.stdout, /nothing to change: nothing was written/);
    t.same(await state(server.store), applied, 'the same files again write nothing, and record no import');

    const renamed = await roster(onboardingCsv({ family: 'Renamed' }), '--org', 'demo-school');
    t.match(renamed.stdout, /user p01: family_name "Number1" → "Renamed"/, 'a change is shown field by field');

    // The demo's pupil, made by the configuration file, is adopted by username; then leaves.
    const adopt = await roster(onboardingCsv({ family: 'Renamed', extra: [DEMO_PUPIL] }), '--org', 'demo-school', '--json');
    t.same(json(adopt).counts.users, { added: 0, changed: 1, unchanged: 33, leaving: 0 }, 'the pupil adopted, not added');
    const pupil = await signInAs(server.url, { password: PUPIL });
    await assertSession(t, pupil, server.url, true, 'before leaving');
    const leave = await roster(onboardingCsv({ family: 'Renamed' }), '--org', 'demo-school');
    t.equal(leave.code, 0, leave.stderr);
    t.match(leave.stdout, /leaving \(2\):\n {2}user pupil\n {2}enrolment pupil in 3A/);
    await assertSession(t, pupil, server.url, false, 'a leaver');
    const held = (await server.store.findUserByUsername((await server.store.findOrganisation('demo-school'))!.id, 'pupil'))!;
    t.equal(held.rosterHold, 'left');
    const back = await roster(onboardingCsv({ family: 'Renamed', extra: [DEMO_PUPIL] }), '--org', 'demo-school');
    t.match(back.stdout, /user pupil: hold "left" → \(none\)/);
    const again2 = await signInAs(server.url, { password: PUPIL });
    t.equal(again2.claims.sub, pupil.claims.sub, 'let back in: the same sub, the same password');

    // A truncated export: 10 of 30 pupils.
    const keep = await state(server.store);
    const truncated = await roster(onboardingCsv({ pupils: 10, family: 'Renamed', extra: [DEMO_PUPIL] }), '--org', 'demo-school', '--json');
    t.equal(truncated.code, 65, 'refused: exit 65');
    const refused = json(truncated);
    t.equal(refused.applied, false);
    t.match(refused.errors, [{ file: 'school.csv', line: 0, message: /20 of the 34 roster-managed users of demo-school would leave \(58\.8 %, more than the 10 % allowed\)/ }]);
    t.same(await state(server.store), keep, 'nothing written');
    const allowed = await roster(onboardingCsv({ pupils: 10, family: 'Renamed', extra: [DEMO_PUPIL] }), '--org', 'demo-school', '--json', '--allow-mass-removal');
    t.equal(allowed.code, 0, allowed.stderr);
    t.same(json(allowed).counts.users!.leaving, 20);

    // An error anywhere applies nothing.
    const now = await state(server.store);
    const bad = await roster(onboardingCsv({ extra: ['x.y,Ex,Why,wizard!,3A,'] }), '--org', 'demo-school');
    t.equal(bad.code, 65);
    t.match(bad.stdout, /errors \(\d+\):\n {2}school\.csv:\d+ type "wizard!" — /);
    t.match(bad.stdout, /not applied: \d+ errors?; nothing was written/);
    t.same(await state(server.store), now, 'nothing written');
  });
}

t.test('OneRoster 1.1, 1.2 and a delta: each school an organisation; the delta changes only what it lists', async (t) => {
  const { lanyard: server, env } = await BACKENDS[0]!.start(t);
  for (const version of ['oneroster-1.1', 'oneroster-1.2']) {
    const r = await lanyard(['roster', 'import', join(FIXTURES, version), '--json'], env);
    t.equal(r.code, 0, `${version}: ${r.stdout} ${r.stderr}`);
    t.same(json(r).errors, [], version);
  }
  t.ok(await server.store.findOrganisation('riverside-primary-school'), 'a new organisation, its slug from its name');
  // 1.1's users.csv names Ruth Okoro administrator of the district, which is an organisation for it.
  const district = (await server.store.findOrganisation('riverside-district'))!;
  const ruth = (await server.store.findUserByUsername(district.id, 'r.okoro'))!;
  t.match(await server.store.userStaffGrants(ruth.id), [{ organisationId: district.id, role: 'admin', source: 'roster' }],
    "the roster's administrator is the district's school admin");
  t.equal((await server.store.userStaffGrants(ruth.id)).length, 1, 'and nothing else');
  const delta = await lanyard(['roster', 'import', join(FIXTURES, 'oneroster-1.1-delta')], env);
  t.equal(delta.code, 0, delta.stderr);
  t.match(delta.stdout, /user ben\.okafor: family_name "Okafor" → "Okafor-Hale"/);
  t.match(delta.stdout, /leaving \(\d+\):\n {2}user cal\.reid/);
});

t.test('--types gives one import its own user type for a OneRoster role, over the configuration file', async (t) => {
  const { lanyard: server, env } = await BACKENDS[0]!.start(t);
  const export11 = join(FIXTURES, 'oneroster-1.1');
  const bad = await lanyard(['roster', 'import', export11, '--types', 'teacher'], env);
  t.not(bad.code, 0, 'a pair without a type is refused');
  t.match(bad.stderr, /--types: "teacher" is not ROLE=TYPE/);
  t.notOk(await server.store.findOrganisation('riverside-primary-school'), 'and nothing is imported');
  const r = await lanyard(['roster', 'import', export11, '--types', 'teacher=employee'], env);
  t.equal(r.code, 0, r.stderr);
  const school = (await server.store.findOrganisation('riverside-primary-school'))!;
  const type = async (username: string) => (await server.store.findUserByUsername(school.id, username))?.type;
  t.equal(await type('h.marsh'), 'employee', 'a teacher is an employee');
  t.equal(await type('t.reyes'), 'employee', 'every teacher');
  const pupil = (await server.store.listUsers(school.id)).find((u) => u.username !== 'h.marsh' && u.username !== 't.reyes' && u.type === 'student');
  t.ok(pupil, 'pupils stay students');
});

t.test('a OneRoster 1.2 delta: a person without role rows changes, minimal tobedeleted rows leave, without --org', async (t) => {
  const { lanyard: server, env } = await BACKENDS[0]!.start(t);
  const full = await lanyard(['roster', 'import', join(FIXTURES, 'oneroster-1.2'), '--json'], env);
  t.equal(full.code, 0, full.stdout);
  const school = (await server.store.findOrganisation('riverside-primary-school'))!;
  const find = (username: string) => server.store.findUserByUsername(school.id, username);
  const ada = (await find('ada.lovelace'))!;
  t.equal((await server.store.classEnrolments((await server.store.findClass(school.id, 'c-3a'))!.id)).some((e) => e.userId === ada.id), true);

  const delta = await lanyard(['roster', 'import', join(FIXTURES, 'oneroster-1.2-delta')], env);
  t.equal(delta.code, 0, `${delta.stdout}\n${delta.stderr}`);
  t.match(delta.stdout, /for riverside-primary-school:/, 'the school is covered though the files name none');
  t.match(delta.stdout, /user ben\.okafor: family_name "Okafor" → "Okafor-Hale"/, 'a person without role rows: the name change applies');
  t.match(delta.stdout, /leaving \(\d+\):\n {2}user cal\.reid/);
  t.match(delta.stdout, /1 person\(s\) marked tobedeleted are not in Lanyard, nothing to do: p99/);
  t.match(delta.stdout, /1 enrolment\(s\) marked tobedeleted are not in Lanyard/);
  t.equal((await find('ben.okafor'))?.familyName, 'Okafor-Hale');
  t.equal((await find('ben.okafor'))?.type, 'student', 'the stored type is kept');
  t.equal((await find('cal.reid'))?.rosterHold, 'left', 'the leaver cannot sign in');
  t.notOk((await server.store.classEnrolments((await server.store.findClass(school.id, 'c-3a'))!.id)).some((e) => e.userId === ada.id),
    'a minimal tobedeleted enrolment, by its sourcedId');
});
