import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ConfigError } from '../../../src/errors.js';
import { readConfigFile } from '../../../src/config/file.js';
import { rosterSettings } from '../../../src/config/roster.js';

const dir = mkdtempSync(join(tmpdir(), 'lanyard-roster-config-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const fileWith = (roster: unknown): string => {
  const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ clients: [], roster }));
  return path;
};

const problems = (roster: unknown): string[] => {
  try {
    readConfigFile(fileWith(roster));
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

t.test('without a roster section: 90 days, 10 %, sourcedId, and the default role mapping', async (t) => {
  const s = rosterSettings(readConfigFile(fileWith(undefined)));
  t.equal(s.retentionDays, 90);
  t.equal(s.massRemovalPercent, 10);
  t.equal(s.rosterIdFrom, 'sourcedId');
  t.same(s.types, {
    student: 'student', teacher: 'teacher', administrator: 'admin', aide: 'employee', proctor: 'employee',
    guardian: 'guardian', parent: 'guardian', relative: 'guardian',
    districtAdministrator: 'admin', siteAdministrator: 'admin', systemAdministrator: 'admin', principal: 'admin', counselor: 'employee',
  });
});

t.test('a school maps a role differently; the roles it does not name keep their defaults', async (t) => {
  const s = rosterSettings(readConfigFile(fileWith({ types: { teacher: 'employee' }, retention_days: 30, mass_removal_percent: 25, roster_id_from: 'identifier' })));
  t.equal(s.types.teacher, 'employee');
  t.equal(s.types.student, 'student');
  t.equal(s.retentionDays, 30);
  t.equal(s.massRemovalPercent, 25);
  t.equal(s.rosterIdFrom, 'identifier');
});

t.test('mistakes are named by their JSON path', async (t) => {
  t.match(problems({ retention_days: -1 }), [/\/roster\/retention_days: must be >= 1/]);
  t.match(problems({ retention_days: 0 }), [/\/roster\/retention_days: must be >= 1/], '0 would delete an import\'s leavers in the same run');
  t.match(problems({ mass_removal_percent: 150 }), [/\/roster\/mass_removal_percent: must be <= 100/]);
  t.match(problems({ types: { teacher: 'Teacher!' } }), [/\/roster\/types\/teacher: must match pattern/]);
  t.match(problems({ roster_id_from: '' }), [/\/roster\/roster_id_from: must match pattern/]);
  t.match(problems({ keep_forever: true }), [/\/roster: unknown property "keep_forever"/]);
});
