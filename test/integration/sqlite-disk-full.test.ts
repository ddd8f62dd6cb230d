import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { demoAuthorizeUrl, EMOJI_KID, HttpBrowser, openMethod, postEmoji } from '../helpers/children.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * A full filesystem under SQLite: a real tmpfs of a few MiB (the tests run as root, as CI does) holds the
 * database; a filler file takes the rest. Writes fail with SQLITE_FULL: every endpoint answers 503 with
 * Retry-After (never 500), /readyz is false, the database stays intact, and service resumes by itself
 * once space is freed.
 */
function mountSmallDisk(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(`this test mounts a small tmpfs and must run as root (as CI does): ${(err as Error).message}`);
  }
  t.teardown(() => {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Writes until the filesystem refuses (ENOSPC); returns the filler's path. Bounded by the disk's size. */
function fill(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (let i = 0; i < 1024; i += 1) writeSync(fd, chunk);
    throw new Error('the disk did not fill within 64 MiB');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    // The last bytes too: the page cache can leave a few KiB that a short write would still take.
    for (let i = 0; i < 64; i += 1) {
      try { writeSync(fd, Buffer.alloc(512, 1)); } catch { break; }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

t.test('a full disk under SQLite: 503s, readiness false, database intact, recovery when space returns', async (t) => {
  const dir = mountSmallDisk(t);
  const lanyard = await startLanyard(t, { dir });
  const ready = await fetch(`${lanyard.url}/readyz`);
  t.equal(ready.status, 200, 'ready before');
  t.match(await ready.json(), { status: 'ready', store: 'sqlite' });
  const browser = new HttpBrowser();
  const before = await openMethod(browser, lanyard.url, 'emoji'); // an open login form, before the disk fills
  t.equal(before.status, 200);

  // The log moved into the database and truncated first: otherwise the checkpoint thread could do it after
  // the disk is full, and the space it frees would take writes again (seen once under a full CI run).
  const checkpoint = new Database(join(dir, 'lanyard.db'));
  checkpoint.pragma('busy_timeout = 5000');
  t.same(checkpoint.pragma('wal_checkpoint(TRUNCATE)'), [{ busy: 0, log: 0, checkpointed: 0 }], 'log checkpointed and truncated');
  checkpoint.close();
  const filler = fill(dir);
  const notReady = await fetch(`${lanyard.url}/readyz`);
  t.equal(notReady.status, 503, '/readyz is false while nothing can be written');
  t.ok(notReady.headers.get('retry-after'), 'with Retry-After');

  const authorize = await fetch(demoAuthorizeUrl(lanyard.url), { redirect: 'manual', headers: { accept: 'text/html' } });
  t.equal(authorize.status, 503, 'authorize: 503 (the interaction cannot be stored)');
  t.ok(authorize.headers.get('retry-after'), 'authorize: Retry-After');
  t.match(await authorize.text(), /temporarily_unavailable/, 'authorize: a friendly page naming temporarily_unavailable');

  const token = await fetch(`${lanyard.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x'.repeat(43), redirect_uri: 'http://localhost:8080/callback' }),
  });
  t.not(token.status, 500, 'token endpoint: never a 500');

  const signIn = await postEmoji(browser, lanyard.url, before, EMOJI_KID.username, EMOJI_KID.emoji);
  t.equal(signIn.status, 503, 'sign-in fails closed: its counters cannot be written');
  t.ok(signIn.headers.get('retry-after'), 'sign-in: Retry-After');
  t.match(await signIn.text(), /try again/i, 'sign-in: a page that says to try again');
  t.notOk(lanyard.logs.some((l) => l.includes('"statusCode":500')), 'no 500 was logged');

  rmSync(filler);
  t.equal((await fetch(`${lanyard.url}/readyz`)).status, 200, 'ready again once space is freed, without a restart');
  const again = await openMethod(new HttpBrowser(), lanyard.url, 'emoji');
  t.equal(again.status, 200, 'sign-in works again');
  const res = await postEmoji(browser, lanyard.url, before, EMOJI_KID.username, EMOJI_KID.emoji);
  t.equal(res.status, 303, 'the form opened before the disk filled now signs in');

  await lanyard.stop();
  const db = new Database(join(dir, 'lanyard.db'), { readonly: true });
  t.teardown(() => db.close());
  t.equal(db.pragma('integrity_check', { simple: true }), 'ok', 'the database is intact');
  t.ok(db.prepare("SELECT 1 FROM users WHERE username = 'emoji-kid'").get(), 'its data is there');
});
