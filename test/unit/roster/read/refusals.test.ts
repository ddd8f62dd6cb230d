import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { readRoster } from '../../../../src/roster/read/read-roster.js';
import type { SourceError } from '../../../../src/roster/source.js';
import { rosterFixture, tempDir, variantOf } from '../../../helpers/roster-files.js';

/**
 * Each problem in an export is an error with its file, line, column, value and reason; all are collected
 * (nothing is thrown for a problem in the data) and a reader never stops at the first.
 */

/** A fixture file's lines (CRLF), BOM kept on the first. */
const lines = (fixture: string, file: string): string[] => readFileSync(rosterFixture(`${fixture}/${file}`), 'utf8').replace(/\r\n$/, '').split('\r\n');
const text = (rows: string[]): string => `${rows.join('\r\n')}\r\n`;
/** The fixture's file with `edit` applied to its lines. */
const edited = (fixture: string, file: string, edit: (rows: string[]) => string[]): string => text(edit(lines(fixture, file)));
const replaced = (fixture: string, file: string, from: string, to: string): string => {
  const before = readFileSync(rosterFixture(`${fixture}/${file}`), 'utf8');
  if (!before.includes(from)) throw new Error(`${file} has no ${from}`);
  return before.replace(from, to);
};

async function errorsOf(t: Test, fixture: string, changes: Record<string, string | null>, limits = {}): Promise<SourceError[]> {
  const folder = variantOf(tempDir(t), fixture, 'export', changes);
  const r = await readRoster(folder, { limits });
  return r.errors;
}

t.test('an enrolment in an unknown class or of an unknown user (their files bulk in this export)', async (t) => {
  const errors = await errorsOf(t, 'oneroster-1.1', {
    'enrollments.csv': edited('oneroster-1.1', 'enrollments.csv', (rows) => [...rows, 'e-x1,,,c-9z,s1,p01,student,false,,', 'e-x2,,,c-3a,s1,p99,student,false,,']),
  });
  t.same(errors, [
    { file: 'enrollments.csv', line: 41, column: 'classSourcedId', value: 'c-9z', message: 'no class with this sourcedId in classes.csv' },
    { file: 'enrollments.csv', line: 42, column: 'userSourcedId', value: 'p99', message: 'no user with this sourcedId in users.csv' },
  ]);
});

t.test('a class at an unknown school, a user at an unknown org', async (t) => {
  const errors = await errorsOf(t, 'oneroster-1.1', {
    'classes.csv': replaced('oneroster-1.1', 'classes.csv', 'MUS7,scheduled,,s2,', 'MUS7,scheduled,,s9,'),
    'users.csv': replaced('oneroster-1.1', 'users.csv', 't3,,,true,"s1,s2"', 't3,,,true,"s1,s8"'),
  });
  t.same(errors, [
    { file: 'classes.csv', line: 5, column: 'schoolSourcedId', value: 's9', message: 'no org with this sourcedId in orgs.csv' },
    { file: 'users.csv', line: 38, column: 'orgSourcedIds', value: 's8', message: 'no org with this sourcedId in orgs.csv' },
  ]);
});

t.test('a duplicate sourcedId in a file', async (t) => {
  const errors = await errorsOf(t, 'oneroster-1.2', {
    'users.csv': edited('oneroster-1.2', 'users.csv', (rows) => [...rows, rows[1]!.replace('ada.lovelace,', 'ada.l2,')]),
  });
  t.same(errors, [{ file: 'users.csv', line: 41, column: 'sourcedId', value: 'p01', message: 'the same sourcedId is on line 2' }]);
});

t.test('a role that is not one of OneRoster\'s (users and enrolments, each version its own)', async (t) => {
  const v11 = await errorsOf(t, 'oneroster-1.1', {
    'users.csv': replaced('oneroster-1.1', 'users.csv', 'p04,,,true,s1,student', 'p04,,,true,s1,pupil'),
    'enrollments.csv': replaced('oneroster-1.1', 'enrollments.csv', 'e-p05,,,c-3a,s1,p05,student', 'e-p05,,,c-3a,s1,p05,learner'),
  });
  t.same(v11, [
    { file: 'users.csv', line: 5, column: 'role', value: 'pupil', message: 'not a OneRoster 1.1 role: one of administrator, aide, guardian, parent, proctor, relative, student, teacher (or ext:…)' },
    { file: 'enrollments.csv', line: 6, column: 'role', value: 'learner', message: 'not a OneRoster 1.1 enrollment role: one of administrator, aide, guardian, parent, proctor, relative, student, teacher (or ext:…)' },
  ]);
  const v12 = await errorsOf(t, 'oneroster-1.2', {
    'roles.csv': replaced('oneroster-1.2', 'roles.csv', 'p04,primary,student', 'p04,primary,pupil'),
    'enrollments.csv': replaced('oneroster-1.2', 'enrollments.csv', 'e-t1-3a,,,c-3a,s1,t1,teacher', 'e-t1-3a,,,c-3a,s1,t1,aide'),
  });
  t.same(v12, [
    { file: 'roles.csv', line: 5, column: 'role', value: 'pupil', message: 'not a OneRoster 1.2 role: one of aide, counselor, districtAdministrator, guardian, parent, principal, proctor, relative, siteAdministrator, student, systemAdministrator, teacher (or ext:…)' },
    { file: 'enrollments.csv', line: 36, column: 'role', value: 'aide', message: 'not a OneRoster 1.2 enrollment role: one of administrator, proctor, student, teacher (or ext:…)' },
  ]);
  const ok = await errorsOf(t, 'oneroster-1.1', { 'users.csv': replaced('oneroster-1.1', 'users.csv', 'p04,,,true,s1,student', 'p04,,,true,s1,STUDENT') });
  t.same(ok, [], 'a role in capitals is that role');
});

t.test('a missing manifest, an unsupported version', async (t) => {
  t.same(await errorsOf(t, 'oneroster-1.1', { 'manifest.csv': null }), [
    { file: 'manifest.csv', line: 0, column: '', message: 'export has no manifest.csv: a OneRoster export starts with it (its versions and which files are bulk, delta or absent)' },
  ]);
  t.same(await errorsOf(t, 'oneroster-1.1', { 'manifest.csv': replaced('oneroster-1.1', 'manifest.csv', 'oneroster.version,1.1', 'oneroster.version,1.0') }), [
    { file: 'manifest.csv', line: 3, column: 'value', value: '1.0', message: 'OneRoster 1.0 is not supported: Lanyard reads OneRoster 1.1 and 1.2 CSV exports' },
  ]);
  t.same(await errorsOf(t, 'oneroster-1.1', { 'manifest.csv': replaced('oneroster-1.1', 'manifest.csv', 'manifest.version,1.0', 'manifest.version,2.0') }), [
    { file: 'manifest.csv', line: 2, column: 'value', value: '2.0', message: 'manifest.version 2.0 is not supported (1.0 is)' },
  ]);
  t.same(await errorsOf(t, 'oneroster-1.1', { 'manifest.csv': replaced('oneroster-1.1', 'manifest.csv', 'oneroster.version,1.1\r\n', '') }), [
    { file: 'manifest.csv', line: 0, column: 'propertyName', message: 'manifest.csv has no oneroster.version (1.1 or 1.2)' },
  ]);
  t.same(await errorsOf(t, 'oneroster-1.1', { 'manifest.csv': replaced('oneroster-1.1', 'manifest.csv', 'file.users,bulk', 'file.users,full') }), [
    { file: 'manifest.csv', line: 16, column: 'value', value: 'full', message: 'file.users must be bulk, delta or absent' },
  ]);
});

t.test('a file the manifest says is there is missing; one it says is absent is a note', async (t) => {
  t.same(await errorsOf(t, 'oneroster-1.1', { 'classes.csv': null }), [
    { file: 'classes.csv', line: 0, column: '', message: 'classes.csv is missing: manifest.csv says it is bulk (line 6)' },
  ]);
  const folder = variantOf(tempDir(t), 'oneroster-1.1', 'export', {
    'manifest.csv': replaced('oneroster-1.1', 'manifest.csv', 'file.courses,bulk', 'file.courses,absent'),
    'notes.txt': 'exported on Friday',
  });
  const r = await readRoster(folder);
  t.same(r.errors, [], 'classes refer to courses, which the export does not carry: left to the planner');
  t.equal(r.modes.courses, 'absent');
  t.same(r.courses, []);
  t.same(r.notes, [
    'demographics.csv is not read (Lanyard keeps no demographics)',
    'courses.csv is in the export but manifest.csv says it is absent: not read',
    'notes.txt is in the export but manifest.csv does not list it: not read',
  ]);
});

t.test('a file too large (a small limit here), an export too large', async (t) => {
  const errors = await errorsOf(t, 'oneroster-1.1', {}, { fileBytes: 2500 });
  const size = readFileSync(rosterFixture('oneroster-1.1/users.csv')).length;
  t.ok(size > 2500 && readFileSync(rosterFixture('oneroster-1.1/enrollments.csv')).length <= 2500, 'users.csv alone is over 2500 bytes');
  t.same(errors, [{ file: 'users.csv', line: 0, column: '', message: `file too large: ${size} bytes (the limit is 2500)` }],
    'the one error: enrolments naming users are not checked against a file that was not read');
  const total = await errorsOf(t, 'oneroster-1.1', {}, { totalBytes: 5000 });
  t.match(total, [{ file: 'export', line: 0, message: /^the export is too large: \d+ bytes uncompressed \(the limit is 5000\)$/ }]);
});

t.test('a header without a required column; a row with a required field empty', async (t) => {
  const errors = await errorsOf(t, 'oneroster-1.1', {
    'users.csv': replaced('oneroster-1.1', 'users.csv', ',familyName,', ',lastName,'),
    'classes.csv': replaced('oneroster-1.1', 'classes.csv', 'c-3b,,,Class 3B,', 'c-3b,,,,'),
  });
  t.same(errors, [
    { file: 'classes.csv', line: 3, column: 'title', message: 'empty: this column is required' },
    { file: 'users.csv', line: 1, column: 'familyName', message: 'the header has no column familyName (users.csv needs sourcedId, username, givenName, familyName, role, orgSourcedIds)' },
  ]);
});

t.test('values: enabledUser, primary, status, dates, usernames', async (t) => {
  const errors = await errorsOf(t, 'oneroster-1.1', {
    'users.csv': edited('oneroster-1.1', 'users.csv', (rows) => rows.map((row) => row
      .replace('p06,,,true,', 'p06,,,yes,')
      .replace('p07,,,true,', 'p07,inactive,,true,')
      .replace('p08,,,true,', 'p08,tobedeleted,,true,')
      .replace('p09,,,true,', 'p09,,yesterday,true,')
      .replace('p10,,,true,s1,student,jack.kowalski', 'p10,,,true,s1,student,Jack Kowalski'))),
    'enrollments.csv': edited('oneroster-1.1', 'enrollments.csv', (rows) => rows.map((row) => row
      .replace('p11,student,false,2024-09-01,', 'p11,student,maybe,2024-09-01,')
      .replace('p12,student,false,2024-09-01,', 'p12,student,false,09/01/2024,')
      .replace('p13,student,false,2024-09-01,', 'p13,student,false,2024-09-01,2024-02-30')
      .replace('p14,student,false,2024-09-01,', 'p14,student,false,2024-09-01,2024-08-31'))),
  });
  t.same(errors, [
    { file: 'users.csv', line: 7, column: 'enabledUser', value: 'yes', message: 'must be true or false' },
    { file: 'users.csv', line: 8, column: 'status', value: 'inactive', message: 'must be active (or empty) in a bulk file' },
    { file: 'users.csv', line: 9, column: 'status', value: 'tobedeleted', message: 'tobedeleted in a bulk file: a bulk file lists what exists; leave the row out (or send a delta file)' },
    { file: 'users.csv', line: 10, column: 'dateLastModified', value: 'yesterday', message: 'not a date-time (ISO 8601, e.g. 2024-08-30T14:03:00.000Z)' },
    { file: 'users.csv', line: 11, column: 'username', value: 'Jack Kowalski', message: 'not a username Lanyard takes (letters, digits and . _ @ - only, at most 64)' },
    { file: 'enrollments.csv', line: 12, column: 'primary', value: 'maybe', message: 'must be true or false' },
    { file: 'enrollments.csv', line: 13, column: 'beginDate', value: '09/01/2024', message: 'not a date (YYYY-MM-DD)' },
    { file: 'enrollments.csv', line: 14, column: 'endDate', value: '2024-02-30', message: 'not a date (YYYY-MM-DD)' },
    { file: 'enrollments.csv', line: 15, column: 'endDate', value: '2024-08-31', message: 'before the beginDate (2024-09-01)' },
  ]);
});

t.test('the same username twice at one school', async (t) => {
  const errors = await errorsOf(t, 'oneroster-1.1', { 'users.csv': replaced('oneroster-1.1', 'users.csv', 'student,ben.okafor,', 'student,ada.lovelace,') });
  t.same(errors, [{ file: 'users.csv', line: 3, column: 'username', value: 'ada.lovelace', message: 'line 2 has the same username at s1' }]);
});

t.test('1.2: users need their roles.csv; a primary org needs a role there; a role needs its user', async (t) => {
  t.same(await errorsOf(t, 'oneroster-1.2', {
    'manifest.csv': replaced('oneroster-1.2', 'manifest.csv', 'file.roles,bulk', 'file.roles,absent'),
  }), [{ file: 'manifest.csv', line: 17, column: 'value', message: 'roles.csv is absent but users.csv is bulk: OneRoster 1.2 gives the users\' roles in roles.csv' }]);
  t.same(await errorsOf(t, 'oneroster-1.2', {
    'roles.csv': edited('oneroster-1.2', 'roles.csv', (rows) => [...rows.filter((r) => !r.startsWith('r-p03-') && !r.startsWith('r-t4-')), 'r-zz,,,p77,primary,student,,,s1,']),
    'users.csv': replaced('oneroster-1.2', 'users.csv', ',,,,,,s1,\r\np02,', ',,,,,,s2,\r\np02,'),
  }), [
    { file: 'roles.csv', line: 41, column: 'userSourcedId', value: 'p77', message: 'no user with this sourcedId in users.csv' },
    { file: 'users.csv', line: 2, column: 'primaryOrgSourcedId', value: 's2', message: 'the user has no role at this org in roles.csv' },
    { file: 'users.csv', line: 4, column: '', message: 'the user has no role in roles.csv' },
    { file: 'users.csv', line: 39, column: '', message: 'the user has no role in roles.csv' },
  ]);
});

t.test('a malformed row is an error and the rest of the file is still read', async (t) => {
  const errors = await errorsOf(t, 'oneroster-1.1', {
    'orgs.csv': edited('oneroster-1.1', 'orgs.csv', (rows) => [rows[0]!, 'd1,,,Riverside District,district', ...rows.slice(2), 's3,,,"Lake "School",school,,d1', 's4,,,Lake School,school,,d1']),
  });
  t.same(errors, [
    { file: 'orgs.csv', line: 2, column: '', message: 'this row has 5 fields where the header has 7' },
    { file: 'orgs.csv', line: 5, column: '', message: 'a quoted field is followed by more text before the next comma (a quote inside a field is written twice: "")' },
    { file: 'users.csv', line: 40, column: 'orgSourcedIds', value: 'd1', message: 'no org with this sourcedId in orgs.csv' },
  ], 'the row of d1 is lost (its administrator then refers to nothing); the rows and files after it are read');
  const r = await readRoster(variantOf(tempDir(t), 'oneroster-1.1', 'export', {
    'orgs.csv': edited('oneroster-1.1', 'orgs.csv', (rows) => [...rows, 's3,,,"Lake "School",school,,d1', 's4,,,Lake School,school,,d1']),
  }));
  t.same(r.orgs.map((o) => [o.sourcedId, o.at.line]), [['d1', 2], ['s1', 3], ['s2', 4], ['s4', 6]], 'the row after the bad one is read, on its line');
});

t.test('errors are capped, the last entry counting the rest', async (t) => {
  const errors = await errorsOf(t, 'oneroster-1.1', {
    'users.csv': edited('oneroster-1.1', 'users.csv', (rows) => rows.map((row, i) => (i >= 1 && i <= 6 ? row.replace(/,true,s1,/i, ',maybe,s1,') : row))),
  }, { errors: 4 });
  t.equal(errors.length, 5);
  t.same(errors.slice(0, 4).map((e) => [e.line, e.column]), [[2, 'enabledUser'], [3, 'enabledUser'], [4, 'enabledUser'], [5, 'enabledUser']]);
  t.same(errors[4], { file: '', line: 0, column: '', message: '…and 2 more errors' });
});
