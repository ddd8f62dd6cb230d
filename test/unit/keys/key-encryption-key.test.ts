import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { KEK_FILE, loadKeyEncryptionKey } from '../../../src/keys/key-encryption-key.js';

const dataDir = (t: { teardown(fn: () => void): void }) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-kek-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

t.test('first start: a 32-byte key is generated into the data directory, owner-only, and reused', async (t) => {
  const dir = dataDir(t);
  const key = loadKeyEncryptionKey(undefined, dir);
  t.equal(key.length, 32, '32 bytes');
  const file = join(dir, KEK_FILE);
  t.equal(statSync(file).mode & 0o777, 0o600, 'mode 0600');
  t.equal(readFileSync(file, 'utf8').trim(), key.toString('base64'), 'stored base64-encoded');
  t.same(loadKeyEncryptionKey(undefined, dir), key, 'the next start reads the same key');
  t.same(readdirSync(dir), [KEK_FILE], 'no temporary file left behind');
});

t.test('a key already in the data directory (another instance wrote it) is used, never overwritten', async (t) => {
  const dir = dataDir(t);
  const theirs = Buffer.alloc(32, 7);
  writeFileSync(join(dir, KEK_FILE), `${theirs.toString('base64')}\n`, { mode: 0o600 });
  t.same(loadKeyEncryptionKey(undefined, dir), theirs);
});

t.test('a configured key wins; a file of the wrong size is a clear error', async (t) => {
  const dir = dataDir(t);
  const configured = Buffer.alloc(32, 1);
  t.same(loadKeyEncryptionKey(configured, dir), configured, 'LANYARD_KEY_ENCRYPTION_KEY is used as is');
  t.same(readdirSync(dir), [], 'and nothing is written');
  writeFileSync(join(dir, KEK_FILE), 'c2hvcnQ=\n');
  t.throws(() => loadKeyEncryptionKey(undefined, dir), { message: /must hold 32 bytes, base64-encoded/ });
});
