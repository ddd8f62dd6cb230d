import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import t from 'tap';
import { classIdOf, roleOfType } from '../../../../src/roster/read/one-file.js';
import { readRoster } from '../../../../src/roster/read/read-roster.js';
import { excelCsv, rosterFixture, tempDir } from '../../../helpers/roster-files.js';

/** The one-file CSV: one row per person, for the organisation given with --org; classes from `class`. */

t.test('the one-file fixture: users, classes from the class column, enrolments', async (t) => {
  const r = await readRoster(rosterFixture('one-file.csv'), { org: 'lakeside' });
  t.same(r.errors, []);
  t.equal(r.format, 'one-file');
  t.same(r.modes, { orgs: 'absent', academicSessions: 'absent', courses: 'absent', classes: 'bulk', users: 'bulk', enrollments: 'bulk' });
  t.same(r.orgs, []);
  t.same(r.classes.map((c) => [c.sourcedId, c.title, c.schoolSourcedId, c.at.line]), [
    ['class:class 1a', 'Class 1A', 'lakeside', 2], ['class:art club', 'Art club', 'lakeside', 4], ['class:class 1b', 'Class 1B', 'lakeside', 5],
  ], 'distinct titles (any case, trimmed), the first spelling kept');
  t.same(r.users.map((u) => [u.sourcedId, u.username, u.type, u.roles[0]!.role]), [
    ['ada.l', 'ada.l', 'student', 'student'], ['ben.o', 'ben.o', 'student', 'student'], ['chloe.d', 'chloe.d', 'student', 'student'],
    ['dev.p', 'dev.p', 'student', 'student'], ['emma.s', 'emma.s', 'student', 'student'], ['finn.o', 'finn.o', 'student', 'student'],
    ['h.marsh', 'h.marsh', 'teacher', 'teacher'], ['t.reyes', 't.reyes', 'employee', 'teacher'], ['office', 'office', 'employee', 'administrator'],
  ], 'type given (default student, any case); the role from it: an employee with a class teaches it');
  const ada = r.users[0]!;
  t.same(ada.roles, [{ orgSourcedId: 'lakeside', role: 'student', primary: true }]);
  t.same(ada.extra, { roster_id: 'MIS-001' });
  t.equal(ada.enabled, true);
  t.equal(r.users[7]!.familyName, 'Reyes, Jr.', 'quoted comma');
  t.equal(r.users[2]!.givenName, 'Chloé');
  t.same(r.enrollments.filter((e) => e.classSourcedId === 'class:art club').map((e) => [e.userSourcedId, e.role]), [
    ['chloe.d', 'student'], ['emma.s', 'student'], ['t.reyes', 'teacher'],
  ]);
  t.equal(r.enrollments.length, 11);
  t.equal(r.enrollments[0]!.sourcedId, 'class:class 1a/ada.l', 'an enrolment\'s id: its class and user');
  t.same(r.notes, []);
  t.match(r.digest, /^[0-9a-f]{64}$/);
});

t.test('a one-file CSV needs --org; without a class column it says nothing of classes', async (t) => {
  await t.rejects(readRoster(rosterFixture('one-file.csv')), { code: 'roster_org_needed', message: /one-file\.csv is a one-file CSV: say which organisation it is for \(--org\)$/ });
  const file = join(tempDir(t), 'staff.csv');
  writeFileSync(file, 'username,given_name,family_name,type,id,grades,shoe_size\nann,Ann,Able,,a-1,"05;06",38\n');
  const r = await readRoster(file, { org: 'lakeside' });
  t.same(r.errors, []);
  t.same([r.modes.classes, r.modes.enrollments], ['absent', 'absent']);
  t.same(r.users.map((u) => [u.sourcedId, u.grades]), [['a-1', ['05', '06']]], 'id and grades');
  t.same(r.notes, ['staff.csv: column shoe_size not read (the columns are username, given_name, family_name, type, class, email, roster_id, id, grades)']);
});

t.test('one-file refusals: duplicate or empty username, duplicate id, bad type, email, missing column', async (t) => {
  const file = join(tempDir(t), 'people.csv');
  writeFileSync(file, excelCsv([
    'username,given_name,family_name,type,email,id',
    'ann,Ann,Able,student,,',
    'ann,Ann,Again,student,,',
    ',Nobody,Known,student,,',
    'ben,Ben,Bell,Head Teacher,,',
    'cat,Cat,Cole,teacher,cat-at-school,',
    'dan,Dan,Dunn,teacher,,ann',
    'emma,,Ellis,student,,',
  ]));
  const r = await readRoster(file, { org: 'lakeside' });
  t.same(r.errors, [
    { file: 'people.csv', line: 3, column: 'username', value: 'ann', message: 'line 2 has the same username' },
    { file: 'people.csv', line: 4, column: 'username', message: 'empty: this column is required' },
    { file: 'people.csv', line: 5, column: 'type', value: 'Head Teacher', message: 'not a user type (lower-case letters and _ only, at most 32: student, teacher, employee, admin…)' },
    { file: 'people.csv', line: 6, column: 'email', value: 'cat-at-school', message: 'not an email address' },
    { file: 'people.csv', line: 7, column: 'id', value: 'ann', message: 'line 2 has the same id' },
    { file: 'people.csv', line: 8, column: 'given_name', message: 'empty: this column is required' },
  ]);
  const noFamily = join(tempDir(t), 'names.csv');
  writeFileSync(noFamily, 'username,given_name,surname\nann,Ann,Able\n');
  t.same((await readRoster(noFamily, { org: 'lakeside' })).errors, [
    { file: 'names.csv', line: 1, column: 'family_name', message: 'the header has no column family_name (a one-file CSV needs username, given_name, family_name)' },
  ]);
});

t.test('roles from types; class ids from titles', async (t) => {
  t.equal(roleOfType('student', false), 'student');
  t.equal(roleOfType('teacher', false), 'teacher', 'a teacher without a class is still a teacher');
  t.equal(roleOfType('aide', true), 'aide');
  t.equal(roleOfType('admin', true), 'administrator');
  t.equal(roleOfType('employee', true), 'teacher');
  t.equal(roleOfType('employee', false), 'administrator');
  t.equal(classIdOf('  Year 3   Maple '.trim()), 'class:year 3 maple');
  t.equal(classIdOf('Ære 1'), classIdOf('ære 1'));
});

t.test('a guardian, parent or relative with a class is enrolled as that, never as a teacher; staff teach', async (t) => {
  const file = join(tempDir(t), 'family.csv');
  writeFileSync(file, [
    'username,given_name,family_name,type,class',
    'kid,Kid,Able,student,3A', 'mum,Mum,Able,parent,3A', 'gran,Gran,Able,relative,3A', 'gus,Gus,Guard,guardian,3A',
    'tess,Tess,Teach,teacher,3A', 'aida,Aida,Aide,aide,3A', 'pat,Pat,Staff,employee,3A', '',
  ].join('\n'));
  const r = await readRoster(file, { org: 'lakeside' });
  t.same(r.errors, []);
  t.same(r.enrollments.map((e) => [e.userSourcedId, e.role]), [
    ['kid', 'student'], ['mum', 'parent'], ['gran', 'relative'], ['gus', 'guardian'], ['tess', 'teacher'], ['aida', 'teacher'], ['pat', 'teacher'],
  ]);
});
