import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import t, { type Test } from 'tap';
import { openStore } from '../../../adapters/open-store.js';
import { ManualClock } from '../../../src/clock.js';
import { rosterUploadsFolder } from '../../../src/school/roster-upload-folder.js';
import { RosterUploads, safeFileName, type ShownPlan, UPLOAD_BYTES, UPLOAD_SECONDS } from '../../../src/school/roster-uploads.js';

/**
 * The console's roster uploads: kept privately for one session and school, for a while, with their hash; the
 * record in the store and the file in the machine's uploads folder, so another process on the same store and
 * folder finds and applies it.
 */

const owner = { sessionKey: 'session-a', organisationId: 'o1' };
const file = (text: string) => Readable.from([Buffer.from(text)]);

async function fixture(t: Test) {
  const clock = new ManualClock();
  const store = await openStore('sqlite::memory:', clock);
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-uploads-test-'));
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });
  const folder = join(dir, 'roster-uploads');
  /** Another process of the machine: its own RosterUploads on the same store and folder. */
  const process = () => new RosterUploads({ store, clock, folder });
  return { clock, store, dir, folder, uploads: process(), process };
}

t.test('an upload is kept under a random id, for its session and school only, with its hash; another process finds it', async (t) => {
  const { folder, uploads, process } = await fixture(t);
  const upload = await uploads.receive(file('username,given_name\n'), 'C:\\exports\\roster (2).csv', owner);
  t.match(upload.id, /^[\w-]{22}$/);
  t.equal(upload.name, 'roster__2_.csv', 'the name as given, made safe');
  t.equal(dirname(dirname(upload.path)), folder, 'in the uploads folder');
  t.equal(readFileSync(upload.path, 'utf8'), 'username,given_name\n');
  t.equal(upload.sha256, createHash('sha256').update('username,given_name\n').digest('hex'));
  t.equal(statSync(folder).mode & 0o777, 0o700, 'a private uploads folder');
  t.equal(statSync(dirname(upload.path)).mode & 0o777, 0o700, 'a private folder for the upload');
  t.equal(statSync(upload.path).mode & 0o777, 0o600, 'a private file');
  const plan = { fingerprint: 'f', changes: true, plannedAt: '2027-01-15T08:00:00.000Z', errors: [], massRemoval: [] } as unknown as ShownPlan;
  await uploads.setPlan(upload, plan);

  const other = process();
  t.same(await other.find(upload.id, owner), { ...upload, plan }, 'another process finds it, with its plan');
  t.same(await other.latest(owner), { ...upload, plan });
  t.equal(await other.find(upload.id, { ...owner, sessionKey: 'session-b' }), undefined, 'not another session\'s');
  t.equal(await other.find(upload.id, { ...owner, organisationId: 'o2' }), undefined, 'not another school\'s');
  t.equal(await other.find('../../etc/passwd', owner), undefined);
  t.ok(await other.here(upload), 'the file is on this machine');
  t.ok(await other.unchanged(upload));
  writeFileSync(upload.path, 'username,given_name\nx,y\n');
  t.notOk(await other.unchanged(upload), 'a file changed since is not the one planned');
  await other.discard(upload);
  t.equal(await uploads.find(upload.id, owner), undefined, 'discarded for every process');
  t.notOk(existsSync(dirname(upload.path)), 'its folder deleted');
});

t.test('a new upload replaces the session\'s one before; uploads expire; their files are swept', async (t) => {
  const { clock, folder, uploads, process } = await fixture(t);
  const first = await uploads.receive(file('a'), 'a.csv', owner);
  const other = await uploads.receive(file('b'), 'b.csv', { ...owner, sessionKey: 'session-b' });
  const second = await process().receive(file('c'), 'c.csv', owner);
  t.equal(await uploads.find(first.id, owner), undefined, 'replaced, by another process too');
  t.notOk(existsSync(first.path), 'and its file deleted');
  t.same(await uploads.latest(owner), second);
  clock.advance(UPLOAD_SECONDS * 1000);
  t.equal(await uploads.find(second.id, owner), undefined, 'expired');
  t.equal(await uploads.latest(owner), undefined);
  // The files of expired uploads go by the file system's clock: these were written 31 minutes ago.
  const long = (Date.now() - (UPLOAD_SECONDS + 60) * 1000 - 1000) / 1000;
  for (const u of [second, other]) { utimesSync(u.path, long, long); utimesSync(dirname(u.path), long, long); }
  const last = await uploads.receive(file('d'), 'd.zip', owner);
  t.notOk(existsSync(second.path), 'swept when the next upload comes');
  t.notOk(existsSync(other.path), 'every expired one');
  t.same(readdirSync(folder), [last.id], 'the new one stays');
  utimesSync(last.path, long, long);
  utimesSync(dirname(last.path), long, long);
  await process().start();
  t.same(readdirSync(folder), [], 'and a process starting sweeps what is left');
});

t.test('an empty file, or one cut at the size limit, is refused and not kept', async (t) => {
  const { folder, uploads } = await fixture(t);
  await t.rejects(uploads.receive(file(''), 'empty.csv', owner), { name: 'UploadRefused', message: /Choose the export/ });
  const cut = Object.assign(file('partial'), { truncated: true });
  await t.rejects(uploads.receive(cut, 'big.zip', owner), { message: /larger than 50 MiB/ });
  t.same(readdirSync(folder), []);
  t.equal(await uploads.latest(owner), undefined);
});

t.test('a body streamed past the size limit is refused, not kept, and read to its end (the refusal can still be answered)', async (t) => {
  const { folder, uploads } = await fixture(t);
  const chunk = Buffer.alloc(1024 * 1024);
  let sent = 0;
  const body = new Readable({
    read() {
      if (sent >= UPLOAD_BYTES + 4 * chunk.length) return void this.push(null);
      sent += chunk.length;
      this.push(chunk);
    },
  });
  await t.rejects(uploads.receive(body, 'roster.zip', owner), { name: 'UploadRefused', message: /larger than 50 MiB/, tooLarge: true });
  t.same(readdirSync(folder), [], 'nothing kept');
  t.equal(await uploads.latest(owner), undefined);
  if (!body.closed) await new Promise((resolve) => body.once('close', resolve));
  t.ok(body.readableEnded, 'not destroyed before its end: its rest was read and dropped');
  t.equal(sent, UPLOAD_BYTES + 4 * chunk.length, 'to its end');
});

t.test('a process on another machine has the record but not the file', async (t) => {
  const { store, clock, dir, uploads } = await fixture(t);
  const upload = await uploads.receive(file('a'), 'a.csv', owner);
  const elsewhere = new RosterUploads({ store, clock, folder: join(dir, 'another-machine') });
  const found = await elsewhere.find(upload.id, owner);
  t.ok(found, 'the record is in the store');
  t.notOk(await elsewhere.here(found!), 'the file is not here');
  t.notOk(await elsewhere.unchanged(found!));
});

t.test('the uploads folder: in the data directory, or the temporary folder; never a link or open to others', async (t) => {
  t.equal(rosterUploadsFolder('sqlite:/var/lib/lanyard/lanyard.db'), '/var/lib/lanyard/roster-uploads');
  t.equal(rosterUploadsFolder('redis://redis:6379'), join(tmpdir(), `lanyard-roster-uploads-${process.getuid!()}`));
  const { store, clock, dir } = await fixture(t);
  const target = join(dir, 'elsewhere');
  mkdirSync(target, { mode: 0o700 });
  symlinkSync(target, join(dir, 'link'));
  await t.rejects(new RosterUploads({ store, clock, folder: join(dir, 'link') }).start(), { code: 'upload_folder' }, 'a link is refused');
  mkdirSync(join(dir, 'open'), { mode: 0o755 });
  await new RosterUploads({ store, clock, folder: join(dir, 'open') }).start();
  t.equal(statSync(join(dir, 'open')).mode & 0o777, 0o700, 'one of ours open to others is closed');
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
