import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { readRoster } from '../../../../src/roster/read/read-roster.js';
import { RosterReadError } from '../../../../src/roster/read/errors.js';
import { renameZipEntry, rosterFixture, tempDir, understateZipEntry, zipFolder } from '../../../helpers/roster-files.js';

/** Zips: entries that would leave the export are refused; sizes are limited before anything is inflated. */

t.test('a zip entry with .. or an absolute path is refused, and nothing of the export is read', async (t) => {
  const dir = tempDir(t);
  const zip = await zipFolder(rosterFixture('oneroster-1.1'), join(dir, 'evil.zip'), { extra: { 'aa/evil.csv': 'x', 'zzzzzz.csv': 'y' } });
  renameZipEntry(zip, 'aa/evil.csv', '../evil.csv');
  renameZipEntry(zip, 'zzzzzz.csv', '/etc/x.csv');
  const r = await readRoster(zip);
  t.same(r.errors, [
    { file: '../evil.csv', line: 0, column: '', message: 'refused zip entry: invalid relative path (an export\'s files stay inside it)' },
    { file: '/etc/x.csv', line: 0, column: '', message: 'refused zip entry: absolute path (an export\'s files stay inside it)' },
  ]);
  t.same([r.users.length, r.orgs.length], [0, 0], 'nothing read');
});

t.test('a zip bomb: the sizes the zip declares are limited before reading', async (t) => {
  const dir = tempDir(t);
  const folder = join(dir, 'big');
  const { mkdirSync, readFileSync } = await import('node:fs');
  mkdirSync(folder);
  for (const f of ['manifest.csv', 'orgs.csv', 'users.csv']) {
    const text = readFileSync(rosterFixture(`oneroster-1.1/${f}`), 'utf8');
    writeFileSync(join(folder, f), f === 'manifest.csv' ? text.replace(/file\.(academicSessions|classes|courses|demographics|enrollments),bulk/g, 'file.$1,absent') : text);
  }
  // 5 MB of one repeated row deflates to a few kilobytes.
  const header = 'sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId\r\n';
  writeFileSync(join(folder, 'orgs.csv'), header + 's1,,,School,school,,\r\n' + 'x,,,,,,\r\n'.repeat(500_000));
  const zip = await zipFolder(folder, join(dir, 'bomb.zip'));
  t.ok(readFileSync(zip).length < 100_000, 'the zip is small');
  const r = await readRoster(zip, { limits: { fileBytes: 1_000_000 } });
  t.match(r.errors, [{ file: 'orgs.csv', line: 0, message: /^file too large: \d{7} bytes \(the limit is 1000000\)$/ }]);
  const all = await readRoster(zip, { limits: { totalBytes: 2_000_000 } });
  t.match(all.errors, [{ file: 'bomb.zip', line: 0, message: /^the export is too large: \d+ bytes uncompressed \(the limit is 2000000\)$/ }]);

  understateZipEntry(zip, 'orgs.csv', 200);
  const lying = await readRoster(zip, { limits: { fileBytes: 1_000_000 } });
  t.match(lying.errors, [{ file: 'orgs.csv', line: 0, message: /^could not be read: too many bytes in the stream/ }],
    'a zip that understates a size is stopped where the inflated bytes pass what it declared');
});

t.test('a zip with too many entries; a file named .zip that is not one', async (t) => {
  const dir = tempDir(t);
  const zip = await zipFolder(rosterFixture('oneroster-1.1'), join(dir, 'export.zip'));
  const r = await readRoster(zip, { limits: { zipEntries: 5 } });
  t.same(r.errors, [{ file: 'export.zip', line: 0, column: '', message: 'the zip lists 8 entries; an export has a few (at most 5 are read)' }]);
  const fake = join(dir, 'fake.zip');
  writeFileSync(fake, 'sourcedId,name\r\n');
  await t.rejects(readRoster(fake), RosterReadError);
  await t.rejects(readRoster(fake), { message: /fake\.zip is not a zip that can be read: / });
});
