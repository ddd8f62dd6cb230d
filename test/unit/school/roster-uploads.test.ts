import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import t from 'tap';
import { ManualClock } from '../../../src/clock.js';
import { RosterUploads, safeFileName, UPLOAD_SECONDS } from '../../../src/school/roster-uploads.js';

/** The console's roster uploads: kept privately for one session and school, for a while, with their hash. */

const owner = { sessionKey: 'session-a', organisationId: 'o1' };
const file = (text: string) => Readable.from([Buffer.from(text)]);

t.test('an upload is kept under a random id, for its session and school only, with its hash', async (t) => {
  const uploads = new RosterUploads(new ManualClock());
  t.teardown(() => uploads.close());
  const upload = await uploads.receive(file('username,given_name\n'), 'C:\\exports\\roster (2).csv', owner);
  t.match(upload.id, /^[\w-]{22}$/);
  t.equal(upload.name, 'roster__2_.csv', 'the name as given, made safe');
  t.equal(readFileSync(upload.path, 'utf8'), 'username,given_name\n');
  t.equal(upload.sha256, createHash('sha256').update('username,given_name\n').digest('hex'));
  t.equal(statSync(dirname(upload.path)).mode & 0o777, 0o700, 'a private folder');
  t.equal(statSync(upload.path).mode & 0o777, 0o600, 'a private file');
  t.equal(await uploads.find(upload.id, owner), upload);
  t.equal(await uploads.find(upload.id, { ...owner, sessionKey: 'session-b' }), undefined, 'not another session\'s');
  t.equal(await uploads.find(upload.id, { ...owner, organisationId: 'o2' }), undefined, 'not another school\'s');
  t.equal(await uploads.find('../../etc/passwd', owner), undefined);
  t.ok(await uploads.unchanged(upload));
  writeFileSync(upload.path, 'username,given_name\nx,y\n');
  t.notOk(await uploads.unchanged(upload), 'a file changed since is not the one planned');
});

t.test('a new upload replaces the session\'s one before; uploads expire; close deletes them all', async (t) => {
  const clock = new ManualClock();
  const uploads = new RosterUploads(clock);
  const first = await uploads.receive(file('a'), 'a.csv', owner);
  const other = await uploads.receive(file('b'), 'b.csv', { ...owner, sessionKey: 'session-b' });
  const second = await uploads.receive(file('c'), 'c.csv', owner);
  t.equal(await uploads.find(first.id, owner), undefined, 'replaced');
  t.notOk(existsSync(first.path), 'and its file deleted');
  t.equal(await uploads.latest(owner), second);
  clock.advance(UPLOAD_SECONDS * 1000);
  t.equal(await uploads.find(second.id, owner), undefined, 'expired');
  t.notOk(existsSync(second.path));
  t.notOk(existsSync(other.path), 'every expired one is deleted');
  t.equal(uploads.size, 0);
  const last = await uploads.receive(file('d'), 'd.zip', owner);
  await uploads.close();
  t.notOk(existsSync(dirname(dirname(last.path))), 'the private folder is gone');
});

t.test('an empty file, or one cut at the size limit, is refused and not kept', async (t) => {
  const uploads = new RosterUploads(new ManualClock());
  t.teardown(() => uploads.close());
  await t.rejects(uploads.receive(file(''), 'empty.csv', owner), { name: 'UploadRefused', message: /Choose the export/ });
  const cut = Object.assign(file('partial'), { truncated: true });
  await t.rejects(uploads.receive(cut, 'big.zip', owner), { message: /larger than 50 MiB/ });
  t.equal(uploads.size, 0);
});

t.test('file names', async (t) => {
  t.equal(safeFileName('export.zip'), 'export.zip');
  t.equal(safeFileName('../../x.csv'), 'x.csv');
  t.equal(safeFileName('.hidden'), 'hidden');
  t.equal(safeFileName(''), 'roster');
  t.equal(safeFileName('élèves.csv'), 'l_ves.csv');
  t.equal(safeFileName(`${'a'.repeat(200)}.csv`).length, 80);
  t.match(safeFileName(`${'a'.repeat(200)}.csv`), /\.csv$/, 'the end kept: the reader tells a CSV by it');
});
