import t from 'tap';
import type { CommandOutput } from '../../src/cli/output.js';
import { listClassesCommand } from '../../src/cli/run-classes.js';
import { listUsersCommand } from '../../src/cli/run-users.js';
import { systemClock } from '../../src/clock.js';
import { signInAs } from '../helpers/account-session.js';
import { putClass, putVisitor } from '../helpers/class-roster.js';
import { startLanyard } from '../helpers/lanyard.js';
import { PUPIL } from '../helpers/sign-in.js';

/**
 * `lanyard classes list` and `lanyard users list --class` (docs/rostering.md → Credentials for a class), as the
 * commands run them, on classes put in the store the way a roster import writes them.
 */

function collect(): CommandOutput & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (l) => lines.push(l), err: (l) => lines.push(`stderr: ${l}`) };
}

const cells = (lines: string[]) => lines.map((l) => l.split(/\s{2,}/));

t.test('classes list: id, sourcedId, title, teachers, pupils; users list: classes, last sign-in, --class', async (t) => {
  const lanyard = await startLanyard(t);
  const { store } = lanyard;
  const org = (await store.findOrganisation('demo-school'))!;
  const teacher = (await store.findUserByUsername(org.id, 'teacher'))!;
  const pupil = (await store.findUserByUsername(org.id, 'pupil'))!;

  const empty = collect();
  await listClassesCommand(lanyard.config, systemClock, { org: 'demo-school' }, empty);
  t.same(empty.lines, ['Demo School has no classes (a roster import brings them: docs/rostering.md)']);

  const art = await putClass(store, {
    organisationId: org.id, sourcedId: 'art-2', title: 'Art 2', pupils: [['Ada', 'Jones']], prefix: 'art-',
    others: [{ user: pupil, role: 'student' }],
  });
  const maths = await putClass(store, {
    organisationId: org.id, sourcedId: 'maths-10', title: 'Maths 10', pupils: [['Ben', 'Li'], ['Cai', 'Wu']], prefix: 'maths-',
    others: [{ user: teacher, role: 'teacher' }, { user: pupil, role: 'student' }],
  });

  const text = collect();
  await listClassesCommand(lanyard.config, systemClock, { org: 'demo-school' }, text);
  t.same(cells(text.lines), [
    ['ID', 'SOURCED ID', 'TITLE', 'TEACHERS', 'PUPILS'],
    [art.class.id, 'art-2', 'Art 2', '-', '2'],
    [maths.class.id, 'maths-10', 'Maths 10', 'Tess Teacher', '3'],
  ], 'one row per class, by title, with its teachers and its pupils counted');
  const json = collect();
  await listClassesCommand(lanyard.config, systemClock, { org: 'demo-school', json: true }, json);
  t.same(JSON.parse(json.lines.join('\n')), [
    { id: art.class.id, sourcedId: 'art-2', title: 'Art 2', classCode: null, teachers: [], pupils: 2 },
    { id: maths.class.id, sourcedId: 'maths-10', title: 'Maths 10', classCode: null, teachers: [{ id: teacher.id, name: 'Tess Teacher' }], pupils: 3 },
  ], '--json: the same');

  const before = Date.now();
  await signInAs(lanyard.url, { password: PUPIL });
  const members = collect();
  await listUsersCommand(lanyard.config, systemClock, { org: 'demo-school', class: 'maths-10' }, members);
  const rows = cells(members.lines);
  t.same(rows[0], ['USERNAME', 'NAME', 'TYPE', 'CLASSES', 'CREDENTIALS', 'BADGE', 'STATUS', 'LAST SIGN-IN']);
  t.same(rows.slice(1).map((r) => r.slice(0, 4)), [
    ['maths-1', 'Ben Li', 'student', 'Maths 10'],
    ['maths-2', 'Cai Wu', 'student', 'Maths 10'],
    ['pupil', 'Pip Pupil', 'student', 'Art 2, Maths 10'],
    ['teacher', 'Tess Teacher', 'employee', 'Maths 10'],
  ], '--class by sourcedId: its members in every role, by username, each with all their classes');
  t.equal(rows[1]!.at(-1), 'never', 'never signed in');
  t.match(rows[3]!.at(-1), /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/, 'the pupil who just signed in: when, to the minute');

  const byId = collect();
  await listUsersCommand(lanyard.config, systemClock, { org: 'demo-school', class: art.class.id, json: true }, byId);
  const listed = JSON.parse(byId.lines.join('\n')) as { username: string; classes: string[]; lastSignIn: string | null }[];
  t.same(listed.map((u) => [u.username, u.classes]), [['art-1', ['Art 2']], ['pupil', ['Art 2', 'Maths 10']]], '--class by id, --json');
  t.equal(listed[0]!.lastSignIn, null, 'never: null');
  const at = Date.parse(listed[1]!.lastSignIn!);
  t.ok(at >= before - 1000 && at <= Date.now(), 'the last sign-in is the one just made');

  const all = collect();
  await listUsersCommand(lanyard.config, systemClock, { org: 'demo-school' }, all);
  t.equal(all.lines.length, 1 + 4 + 3, 'without --class: every user');
  t.same(cells(all.lines).find((r) => r[0] === 'emoji-kid')?.slice(3, 4), ['-'], 'in no class: -');

  await t.rejects(listUsersCommand(lanyard.config, systemClock, { org: 'demo-school', class: 'nope' }, collect()),
    /no class "nope" in Demo School \(lanyard classes list --org demo-school lists them\)/);
  await t.rejects(listClassesCommand(lanyard.config, systemClock, { org: 'nowhere' }, collect()), /no organisation "nowhere"/);
});

t.test('users list --class: members whose own school is another one are listed, with that school and what they hold there', async (t) => {
  const lanyard = await startLanyard(t);
  const { store } = lanyard;
  const org = (await store.findOrganisation('demo-school'))!;
  const maths = await putClass(store, { organisationId: org.id, sourcedId: 'maths-10', title: 'Maths 10', pupils: [['Ben', 'Li']], prefix: 'maths-' });
  // A teacher and a pupil of Hill School, the district's other school, in Demo School's class.
  const hill = await store.upsertOrganisation({ slug: 'hill-school', name: 'Hill School' });
  const hana = await store.upsertUser({ organisationId: hill.id, username: 'hana', givenName: 'Hana', familyName: 'Tanaka', type: 'employee' });
  const abe = await store.upsertUser({ organisationId: hill.id, username: 'abe', givenName: 'Abe', familyName: 'Ito', type: 'student' });
  await putVisitor(store, maths.class, hana, 'teacher');
  await putVisitor(store, maths.class, abe, 'student');
  await store.setCredential(abe.id, 'emoji', 'abes-hash');
  await store.issueBadge(abe.id, hill.id, 'abes-badge');
  await store.recordSignIn(hana.id, '2025-05-01T08:31:12.000Z');

  const text = collect();
  await listUsersCommand(lanyard.config, systemClock, { org: 'demo-school', class: 'maths-10' }, text);
  t.same(cells(text.lines), [
    ['USERNAME', 'NAME', 'TYPE', 'CLASSES', 'CREDENTIALS', 'BADGE', 'STATUS', 'LAST SIGN-IN'],
    ['abe', 'Abe Ito (Hill School)', 'student', 'Maths 10', 'emoji', 'yes', 'active', 'never'],
    ['hana', 'Hana Tanaka (Hill School)', 'employee', 'Maths 10', '-', 'no', 'active', '2025-05-01 08:31 UTC'],
    ['maths-1', 'Ben Li', 'student', 'Maths 10', '-', 'no', 'active', 'never'],
  ], 'every member, by username; another school\'s named, with their credentials, badge and sign-in there');
  const json = collect();
  await listUsersCommand(lanyard.config, systemClock, { org: 'demo-school', class: 'maths-10', json: true }, json);
  const listed = JSON.parse(json.lines.join('\n')) as { username: string; ownOrganisation: unknown; credentials: string[]; badge: boolean }[];
  t.same(listed.map((u) => [u.username, u.ownOrganisation, u.credentials, u.badge]), [
    ['abe', { slug: 'hill-school', name: 'Hill School' }, ['emoji'], true],
    ['hana', { slug: 'hill-school', name: 'Hill School' }, [], false],
    ['maths-1', null, [], false],
  ], '--json: ownOrganisation, null for this school\'s own');

  const all = collect();
  await listUsersCommand(lanyard.config, systemClock, { org: 'demo-school' }, all);
  t.notOk(cells(all.lines).some((r) => r[0] === 'abe' || r[0] === 'hana'), 'without --class: the organisation\'s own users');
});
