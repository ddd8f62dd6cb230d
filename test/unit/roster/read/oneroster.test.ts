import { join } from 'node:path';
import t from 'tap';
import { readRoster } from '../../../../src/roster/read/read-roster.js';
import type { RosterSource, SourceUser } from '../../../../src/roster/source.js';
import { rosterFixture, tempDir, zipFolder } from '../../../helpers/roster-files.js';

/**
 * The hand-written OneRoster exports (test/fixtures/roster/): a district (d1) with two schools, Riverside
 * Primary (s1: 30 pupils in Class 3A and 3B, three teachers) and Hilltop Middle (s2: 4 pupils in one class),
 * a teacher in both schools, a district administrator, one pupil not enabled; as Excel saves CSV (BOM,
 * CRLF), with quoted commas and line breaks and empty optional columns.
 */

const user = (r: RosterSource, id: string): SourceUser => {
  const u = r.users.find((x) => x.sourcedId === id);
  if (!u) throw new Error(`no user ${id}`);
  return u;
};

for (const version of ['1.1', '1.2'] as const) {
  t.test(`OneRoster ${version}: a district's export is read whole, without an error`, async (t) => {
    const r = await readRoster(rosterFixture(`oneroster-${version}`));
    t.same(r.errors, [], 'no errors');
    t.equal(r.format, `oneroster-${version}`);
    t.same(r.modes, { orgs: 'bulk', academicSessions: 'bulk', courses: 'bulk', classes: 'bulk', users: 'bulk', enrollments: 'bulk' });
    t.same(r.notes, ['demographics.csv is not read (Lanyard keeps no demographics)'], 'demographics: a note, not read');
    t.same(r.orgs.map((o) => [o.sourcedId, o.type, o.parentSourcedId]), [['d1', 'district', undefined], ['s1', 'school', 'd1'], ['s2', 'school', 'd1']]);
    t.equal(r.orgs[2]!.name, 'Hilltop Middle School, Riverside', 'a quoted comma stays in its field');
    t.same([r.users.length, r.classes.length, r.enrollments.length, r.courses.length, r.academicSessions.length], [39, 3, 39, 2, 2], 'counts');
    const s1Pupils = r.users.filter((u) => u.roles[0]?.orgSourcedId === 's1' && u.roles[0].role === 'student');
    t.equal(s1Pupils.length, 30, '30 pupils at Riverside Primary');
    const s1Teachers = r.users.filter((u) => u.roles.some((role) => role.orgSourcedId === 's1' && role.role === 'teacher' && role.primary));
    t.same(s1Teachers.map((u) => u.sourcedId).sort(), ['t1', 't2', 't3'], 'three teachers there');
    t.same(r.enrollments.filter((e) => e.classSourcedId === 'c-3a' && e.role === 'student').length, 15, 'Class 3A: 15 pupils');

    const first = r.users[0]!;
    t.equal(first.sourcedId, 'p01', 'the BOM is not part of the first header (sourcedId is found)');
    t.same(first.at, { file: 'users.csv', line: 2 });
    t.same(first.extra, { identifier: '1001', 'userIds.LDAP': 'ada.lovelace', 'userIds.SIS': '1001' }, 'identifier and userIds pairs');
    t.equal(first.middleName, undefined, 'an empty optional column is undefined');
    t.equal(first.email, undefined);
    t.equal(user(r, 'p05').middleName, 'Mae');
    t.equal(user(r, 't2').familyName, 'Reyes, Jr.');
    t.equal(user(r, 't2').givenName, 'Tomás', 'UTF-8 names');
    t.equal(user(r, 'p30').enabled, false, 'enabledUser false');
    t.equal(user(r, 'p02').enabled, true, 'enabledUser TRUE (any case)');
    t.same(user(r, 'p31').grades, ['07']);

    const [c3a, c3b, mus] = r.classes;
    t.equal(c3a!.location, 'Room 12, East wing');
    t.equal(c3b!.location, 'Building B\r\nFloor 2', 'a quoted line break (CRLF) stays in its field');
    t.same(c3b!.at, { file: 'classes.csv', line: 3 });
    t.same(mus!.at, { file: 'classes.csv', line: 5 }, 'the next record starts on its own line, after the quoted line break');
    t.same(c3a!.termSourcedIds, ['t2025-1', 'y2025'], 'a list inside a quoted field');
    t.same(c3a!.periods, ['1', '2']);
    t.same(c3a!.subjects, ['English', 'Mathematics']);
    t.equal(mus!.title, 'Music, Year 7');
    t.equal(mus!.classType, 'scheduled');
    t.equal(c3a!.courseSourcedId, 'crs-y3');

    const teach = r.enrollments.filter((e) => e.userSourcedId === 't3');
    t.same(teach.map((e) => [e.classSourcedId, e.primary]), [['c-3a', false], ['c-3b', false], ['c-mus7', true]], 'primary: false, False, TRUE');
    t.equal(teach[0]!.beginDate, '2024-09-01');
    t.equal(teach[0]!.endDate, undefined);
    t.match(r.digest, /^[0-9a-f]{64}$/);
  });
}

t.test('the person in both schools: own school first, in 1.1 (orgSourcedIds order) and 1.2 (primaryOrgSourcedId)', async (t) => {
  const v11 = await readRoster(rosterFixture('oneroster-1.1'));
  t.same(user(v11, 't3').roles, [{ orgSourcedId: 's1', role: 'teacher', primary: true }, { orgSourcedId: 's2', role: 'teacher', primary: true }]);
  t.same(user(v11, 'a1').roles, [{ orgSourcedId: 'd1', role: 'administrator', primary: true }]);

  // roles.csv lists t3's role at s2 first; her primaryOrgSourcedId is s1.
  const v12 = await readRoster(rosterFixture('oneroster-1.2'));
  t.same(user(v12, 't3').roles, [{ orgSourcedId: 's1', role: 'teacher', primary: true }, { orgSourcedId: 's2', role: 'teacher', primary: true }]);
  t.same(user(v12, 'a1').roles, [
    { orgSourcedId: 'd1', role: 'districtAdministrator', primary: true },
    { orgSourcedId: 's1', role: 'teacher', primary: false },
  ], '1.2 roles: a secondary role after the primary one; 1.2 spells its roles as the standard does');
});

t.test('the same files read from a zip are the same roster with the same digest', async (t) => {
  const dir = tempDir(t);
  for (const version of ['1.1', '1.2']) {
    const folder = await readRoster(rosterFixture(`oneroster-${version}`));
    const zipped = await readRoster(await zipFolder(rosterFixture(`oneroster-${version}`), join(dir, `export-${version}.zip`)));
    t.same(zipped, folder, `${version}: zip and folder read alike`);
    const inFolder = await readRoster(await zipFolder(rosterFixture(`oneroster-${version}`), join(dir, `nested-${version}.zip`), {
      prefix: 'riverside-export/', extra: { '__MACOSX/riverside-export/._users.csv': 'resource fork' },
    }));
    t.same(inFolder, folder, `${version}: a zip of the folder itself (one top folder, macOS's extras) too`);
  }
  const v11 = await readRoster(rosterFixture('oneroster-1.1'));
  const v12 = await readRoster(rosterFixture('oneroster-1.2'));
  t.not(v11.digest, v12.digest, 'other files, another digest');
});

t.test('progress: each file read is reported, with its rows, and done at its end', async (t) => {
  const calls: [string, number, boolean][] = [];
  await readRoster(rosterFixture('oneroster-1.2'), { progress: (file, rows, done) => calls.push([file, rows, done]) });
  t.same(calls.filter(([, , done]) => done), [
    ['manifest.csv', 19, true], ['orgs.csv', 3, true], ['academicSessions.csv', 2, true], ['courses.csv', 2, true],
    ['classes.csv', 3, true], ['users.csv', 39, true], ['roles.csv', 41, true], ['enrollments.csv', 39, true],
  ], 'in the order read: manifest, then the kinds as they refer to each other');
});
