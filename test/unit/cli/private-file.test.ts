import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { checkPrivateFile, writePrivateFile } from '../../../src/cli/private-file.js';

function folder(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-private-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const data = Buffer.from('%PDF-secrets');

t.test('written with mode 0600, and only after the commit succeeded', async (t) => {
  const dir = folder(t);
  const path = join(dir, 'cards.pdf');
  let seen: string[] = [];
  await writePrivateFile(path, data, { force: false }, async () => { seen = readdirSync(dir); });
  t.equal(seen.length, 1, 'during the commit: one partial file beside it');
  t.notOk(seen.includes('cards.pdf'), 'and nothing at the path yet');
  t.same(readFileSync(path), data);
  t.equal(statSync(path).mode & 0o777, 0o600, 'owner only');
  t.same(readdirSync(dir), ['cards.pdf'], 'the partial file is gone');
});

t.test('a failed commit leaves nothing behind', async (t) => {
  const dir = folder(t);
  await t.rejects(writePrivateFile(join(dir, 'cards.pdf'), data, { force: false }, async () => { throw new Error('store down'); }), /store down/);
  t.same(readdirSync(dir), [], 'no file, no partial file');
});

t.test('an existing file: refused up front, and never replaced without force', async (t) => {
  const dir = folder(t);
  const path = join(dir, 'cards.pdf');
  writeFileSync(path, 'last week');
  t.throws(() => checkPrivateFile(path, { force: false }), /cannot write .*cards\.pdf: the file exists \(choose another name, or --force to replace it\)/);
  t.doesNotThrow(() => checkPrivateFile(path, { force: true }));
  // A file that appears after the check: the link refuses it, and says where the issued secrets are.
  await t.rejects(writePrivateFile(path, data, { force: false }, async () => {}), /the credentials were issued, but the file could not be put at .*cards\.pdf .*: it is .*\.partial/);
  t.equal(readFileSync(path, 'utf8'), 'last week', 'untouched');
  await writePrivateFile(path, data, { force: true }, async () => {});
  t.same(readFileSync(path), data, 'force replaces it');
  t.equal(statSync(path).mode & 0o777, 0o600);
});

t.test('no folder, a folder in the way', async (t) => {
  const dir = folder(t);
  t.throws(() => checkPrivateFile(join(dir, 'missing', 'cards.pdf'), { force: false }), /there is no folder/);
  t.throws(() => checkPrivateFile(dir, { force: true }), /that is a folder/);
  t.notOk(existsSync(join(dir, 'missing')));
});
