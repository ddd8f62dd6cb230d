import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { RosterReadError } from '../../../../src/roster/read/errors.js';
import { readRoster } from '../../../../src/roster/read/read-roster.js';
import { rosterFixture, tempDir } from '../../../helpers/roster-files.js';

/** What readRoster is given decides the format; anything that is not a roster is refused, saying what is. */

t.test('not a roster export: a JSON file, a text file, a CSV without a username column', async (t) => {
  const dir = tempDir(t);
  const json = join(dir, 'people.json');
  writeFileSync(json, '{"organisations": []}');
  await t.rejects(readRoster(json), {
    name: 'RosterReadError', code: 'roster_unreadable',
    message: `${json} is not a roster export: expected a OneRoster zip or folder (manifest.csv) or a one-file CSV; for the JSON format use \`lanyard import\``,
  });
  const csv = join(dir, 'marks.csv');
  writeFileSync(csv, 'name,mark\nann,5\n');
  await t.rejects(readRoster(csv, { org: 'x' }), { message: /marks\.csv is not a roster export: .* \(a one-file CSV has a username column\)$/ });
  await t.rejects(readRoster(join(dir, 'nothing-here')), new RosterReadError(`${join(dir, 'nothing-here')}: no such file or folder`));
});

t.test('one file of a OneRoster export, given alone, is refused with what to give instead', async (t) => {
  await t.rejects(readRoster(rosterFixture('oneroster-1.1/users.csv')), {
    message: /users\.csv is one file of a OneRoster export: give the whole export \(its folder with manifest\.csv, or the zip\)$/,
  });
  await t.rejects(readRoster(rosterFixture('oneroster-1.1/manifest.csv')), { message: /manifest\.csv is a OneRoster manifest: give its folder, or the zip/ });
});

t.test('a folder is a OneRoster export, with or without its manifest', async (t) => {
  const dir = join(tempDir(t), 'empty-export');
  mkdirSync(dir);
  const r = await readRoster(dir);
  t.same(r.errors, [{ file: 'manifest.csv', line: 0, column: '', message: 'empty-export has no manifest.csv: a OneRoster export starts with it (its versions and which files are bulk, delta or absent)' }]);
  t.same([r.users, r.classes, r.enrollments], [[], [], []]);
});
