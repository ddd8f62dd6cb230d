import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openStore } from '../../adapters/open-store.js';
import { checkPassword } from '../../src/accounts/password-login.js';
import { systemClock } from '../../src/clock.js';
import { checkConfig, loadConfig } from '../../src/config/config.js';
import { ensureSandbox, SANDBOX_NAME, sandboxCredentials } from '../../src/developer/sandbox.js';
import { ConfigError } from '../../src/errors.js';
import { openServices } from '../../src/startup/services.js';
import { lanyard as cli } from '../helpers/cli.js';
import { writeConfig } from '../helpers/config-file.js';
import { startLanyard } from '../helpers/lanyard.js';
import { pooledKeyPair } from '../helpers/test-keys.js';

/**
 * The sandbox school (docs/developer-area.md): made once, the same on every instance and after every restart, put back
 * when an operator deletes or changes a test user, and never confused with a real school.
 */

const tempDir = (t: { teardown(fn: () => unknown): void }) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-sandbox-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

t.test('made at the first start with five test users, their credentials generated once and kept', async (t) => {
  const first = await startLanyard(t);
  const a = await sandboxCredentials(first.store);
  t.same(a.organisation.slug, 'sandbox');
  t.equal(a.organisation.name, SANDBOX_NAME);
  t.same(a.users.map((u) => [u.username, u.type]), [
    ['teacher', 'employee'], ['emoji-pupil', 'student'], ['badge-pupil', 'student'], ['password-pupil', 'student'], ['admin', 'admin'],
  ], 'a teacher, three pupils (emoji, badge, password) and an admin');
  const org = (await first.store.findOrganisation('sandbox'))!;
  t.same(org.login.methods, ['emoji', 'badge', 'password'], 'the school offers every way of signing in');
  t.equal((await first.store.listUsers(org.id)).length, 5);
  for (const u of a.users) {
    const kinds = (await first.store.credentialKinds(org.id)).get(u.id) ?? [];
    if (u.password) t.same(kinds, ['password'], `${u.username}: a password, stored hashed`);
    if (u.emoji) t.same(kinds, ['emoji'], `${u.username}: an emoji password, stored hashed`);
    if (u.badge) t.ok((await first.store.badgeHolders(org.id)).has(u.id), `${u.username}: a badge`);
  }
  const hash = await first.store.getCredential(a.users[0]!.id, 'password');
  t.match(hash, /^\$argon2id\$/, 'argon2id, as every credential');
  t.not(hash, a.users[0]!.password);

  // Another start on the same store: nothing changes (same credentials, same users, same hashes).
  const dir = first.dir;
  await first.stop();
  const second = await startLanyard(t, { dir });
  const b = await sandboxCredentials(second.store);
  t.same(b, a, 'the same school, users and credentials after a restart');
  t.equal(await second.store.getCredential(a.users[0]!.id, 'password'), hash, 'no credential re-hashed');
});

t.test('many instances starting at once on one store make one sandbox school', async (t) => {
  const dir = tempDir(t);
  const config = loadConfig({ LANYARD_STORE: `sqlite:${join(dir, 'lanyard.db')}`, LANYARD_LOG_LEVEL: 'silent' });
  const instances = await Promise.all([1, 2, 3].map(() => openServices(config, systemClock, pooledKeyPair)));
  t.teardown(() => Promise.all(instances.map((s) => s.store.close())));
  const seen = await Promise.all(instances.map((s) => sandboxCredentials(s.store)));
  t.same(seen[1], seen[0]);
  t.same(seen[2], seen[0], 'every instance shows the same credentials');
  const org = (await instances[0]!.store.findOrganisation('sandbox'))!;
  t.equal((await instances[0]!.store.listUsers(org.id)).length, 5, 'five users, none twice');
});

t.test('a test user deleted or changed with the CLI is put back at the next start', async (t) => {
  const first = await startLanyard(t);
  const before = await sandboxCredentials(first.store);
  const env = { LANYARD_STORE: `sqlite:${join(first.dir, 'lanyard.db')}` };
  const emojiPupil = before.users.find((u) => u.username === 'emoji-pupil')!;
  const deleted = await cli(['users', 'delete', '--org', 'sandbox', '--user', 'emoji-pupil'], env);
  t.equal(deleted.code, 0, deleted.stderr);
  const changed = await cli(['users', 'emoji', '--org', 'sandbox', '--user', 'emoji-pupil'], env);
  t.equal(changed.code, 1, 'the deleted user is gone');
  t.equal((await cli(['users', 'suspend', '--org', 'sandbox', '--user', 'admin'], env)).code, 0);
  const pupil = before.users.find((u) => u.username === 'password-pupil')!;
  const org = (await first.store.findOrganisation('sandbox'))!;
  await first.store.setCredential(pupil.id, 'password', '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$changedchangedchangedchangedchangedchangedc');
  await first.store.revokeBadges({ userId: before.users.find((u) => u.username === 'badge-pupil')!.id });
  await first.stop();

  const second = await startLanyard(t, { dir: first.dir });
  const after = await sandboxCredentials(second.store);
  const back = after.users.find((u) => u.username === 'emoji-pupil')!;
  t.not(back.id, emojiPupil.id, 'the deleted pupil is back, with a new id (a deleted id is never reused)');
  t.same(back.emoji, emojiPupil.emoji, 'with the emoji password developers were shown');
  t.notOk((await second.store.findUser(after.users.find((u) => u.username === 'admin')!.id))!.suspendedAt, 'the admin is no longer suspended');
  t.equal((await second.store.listUsers(org.id)).length, 5);
  t.ok((await second.store.badgeHolders(org.id)).has(after.users.find((u) => u.username === 'badge-pupil')!.id), 'the badge works again');
  const summary = await ensureSandbox(second.store);
  t.same(summary.repaired, [], 'after the repair there is nothing left to repair');

  // Every credential works as shown: the sign-ins of test/integration/development-apps.test.ts, here by password.
  t.ok(await checkPassword(second.store, org, 'password-pupil', pupil.password!), 'the changed password is put back');
  t.ok(await checkPassword(second.store, org, 'admin', after.users.find((u) => u.username === 'admin')!.password!), 'the admin signs in');
});

t.test('while running, the sandbox page repairs a deleted test user at once', async (t) => {
  const lanyard = await startLanyard(t);
  const before = await sandboxCredentials(lanyard.store);
  const teacher = before.users.find((u) => u.username === 'teacher')!;
  await lanyard.store.deleteUser(teacher.id, new Date().toISOString());
  const after = await sandboxCredentials(lanyard.store);
  const again = after.users.find((u) => u.username === 'teacher')!;
  t.not(again.id, teacher.id, 'the teacher is there again');
  t.equal(again.password, teacher.password, 'with the same password');
});

t.test('the slug is reserved: a configuration file may not use it, nor a real school already in the store', async (t) => {
  const path = writeConfig((c) => { c.organisations!.push({ slug: 'sandbox', name: 'Sandbox Primary' }); });
  const check = checkConfig({ LANYARD_CONFIG: path });
  t.notOk(check.config, 'refused');
  t.match(check.problems.join('\n'), /\/organisations\/1\/slug: "sandbox" is reserved for Lanyard's developer sandbox school/, 'naming the JSON path');
  const imported = await cli(['import', path], { LANYARD_STORE: 'sqlite::memory:' });
  t.equal(imported.code, 78, '`lanyard import` refuses it too');
  t.match(imported.stderr, /reserved/);

  // A store where a school took the slug before there was a sandbox (an import of an earlier version).
  const dir = tempDir(t);
  const store = await openStore(`sqlite:${join(dir, 'lanyard.db')}`, systemClock);
  const school = await store.upsertOrganisation({ slug: 'sandbox', name: 'Sandbox Primary' });
  await store.upsertUser({ organisationId: school.id, username: 'real-child', givenName: 'Real', familyName: 'Child', type: 'student' });
  await t.rejects(ensureSandbox(store), ConfigError, 'startup stops rather than let development apps sign in its users');
  await t.rejects(ensureSandbox(store), /organisation with the slug "sandbox" \(Sandbox Primary, o\d+\) that is not Lanyard's sandbox school/);
  t.equal((await store.findOrganisation('sandbox'))!.name, 'Sandbox Primary', 'the real school is left alone');
  await store.close();
});
