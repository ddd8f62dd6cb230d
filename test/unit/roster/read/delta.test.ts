import t from 'tap';
import { readRoster } from '../../../../src/roster/read/read-roster.js';
import { rosterFixture, tempDir, writeExport, excelCsv } from '../../../helpers/roster-files.js';

/**
 * A delta export (file.X = delta) lists changes only: each row says active (added or changed) or
 * tobedeleted, with its dateLastModified. References to kinds the export does not carry are left to the
 * planner, which checks them against the store.
 */

t.test('a 1.1 delta: a changed, a deleted and a new pupil, and their enrolments', async (t) => {
  const r = await readRoster(rosterFixture('oneroster-1.1-delta'));
  t.same(r.errors, []);
  t.same(r.modes, { orgs: 'absent', academicSessions: 'absent', courses: 'absent', classes: 'absent', users: 'delta', enrollments: 'delta' });
  t.same(r.users.map((u) => [u.sourcedId, u.status, u.modifiedAt, u.familyName]), [
    ['p02', 'active', '2024-10-02T08:15:00.000Z', 'Okafor-Hale'],
    ['p29', 'tobedeleted', '2024-10-02T08:15:00.000Z', 'Reid'],
    ['p35', 'active', '2024-10-02T00:00:00.000Z', 'Walsh'],
  ], 'statuses (Active in any case) and dateLastModified as ISO instants (a date alone is its midnight UTC)');
  t.same(r.enrollments.map((e) => [e.sourcedId, e.status, e.classSourcedId, e.endDate]), [
    ['e-p29', 'tobedeleted', 'c-3b', '2024-10-01'],
    ['e-p35', 'active', 'c-3b', undefined],
  ], 'c-3b is not in this export (classes absent): not an error');
  t.same(r.users[2]!.roles, [{ orgSourcedId: 's1', role: 'student', primary: true }], 'an org absent from the export: unchecked');
  t.same(r.notes, []);
});

t.test('a delta row needs its status; a tobedeleted row needs only its sourcedId', async (t) => {
  const users = 'sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password';
  const folder = writeExport(tempDir(t), 'delta', {
    'manifest.csv': excelCsv(['propertyName,value', 'manifest.version,1.0', 'oneroster.version,1.1', 'file.users,delta', 'file.orgs,bulk']),
    'orgs.csv': excelCsv(['sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId', 's1,,,School,school,,']),
    'users.csv': excelCsv([users,
      'u1,,2024-10-02T08:15:00Z,true,s1,student,ann,,Ann,Able,,,,,,,,',
      'u2,tobedeleted,2024-10-02T08:15:00Z,,,,,,,,,,,,,,,',
      'u3,deleted,2024-10-02T08:15:00Z,true,s1,student,cat,,Cat,Cole,,,,,,,,',
      'u4,active,2024-10-02T08:15:00+02:00,true,s9,student,dan,,Dan,Dunn,,,,,,,,']),
  });
  const r = await readRoster(folder);
  t.same(r.errors, [
    { file: 'users.csv', line: 2, column: 'status', message: 'empty: a delta file says active or tobedeleted for every row' },
    { file: 'users.csv', line: 4, column: 'status', value: 'deleted', message: 'must be active or tobedeleted' },
    { file: 'users.csv', line: 5, column: 'orgSourcedIds', value: 's9', message: 'no org with this sourcedId in orgs.csv' },
  ], 'orgs.csv is bulk here, so users\' orgs are checked against it');
  t.same(r.users.find((u) => u.sourcedId === 'u2')?.status, 'tobedeleted');
  t.equal(r.users.find((u) => u.sourcedId === 'u4')?.modifiedAt, '2024-10-02T06:15:00.000Z', 'an offset is read');

  const noStatus = writeExport(tempDir(t), 'delta', {
    'manifest.csv': excelCsv(['propertyName,value', 'oneroster.version,1.1', 'file.orgs,delta']),
    'orgs.csv': excelCsv(['sourcedId,dateLastModified,name,type', 's1,,School,school']),
  });
  t.same((await readRoster(noStatus)).errors, [
    { file: 'orgs.csv', line: 1, column: 'status', message: 'the header has no column status (orgs.csv needs sourcedId, name, type, status)' },
  ]);
});

t.test('1.2 delta: roles for users not in the export and deleted roles are notes; users keep no roles then', async (t) => {
  const folder = writeExport(tempDir(t), 'delta', {
    'manifest.csv': excelCsv(['propertyName,value', 'manifest.version,1.0', 'oneroster.version,1.2', 'file.users,delta', 'file.roles,delta']),
    'users.csv': excelCsv(['sourcedId,status,dateLastModified,enabledUser,username,givenName,familyName,primaryOrgSourcedId',
      'u1,active,2024-10-02T08:15:00Z,true,ann,Ann,Able-Baker,s1',
      'u2,active,2024-10-02T08:15:00Z,true,ben,Ben,Bell,s1']),
    'roles.csv': excelCsv(['sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId',
      'r1,active,2024-10-02T08:15:00Z,u2,primary,student,,,s1,',
      'r2,active,2024-10-02T08:15:00Z,u9,primary,student,,,s1,',
      'r3,tobedeleted,2024-10-02T08:15:00Z,u2,secondary,aide,,,s1,']),
  });
  const r = await readRoster(folder);
  t.same(r.errors, []);
  t.same(r.users.map((u) => [u.sourcedId, u.roles]), [['u1', []], ['u2', [{ orgSourcedId: 's1', role: 'student', primary: true }]]],
    'u1 changed without its roles: none read, the stored ones stay');
  t.same(r.notes, [
    'roles.csv: 1 role is for users not in users.csv and not applied (a role changes with its user\'s row)',
    'roles.csv: 1 role to be deleted not applied by itself (the user\'s row gives the roles left)',
  ]);
});
