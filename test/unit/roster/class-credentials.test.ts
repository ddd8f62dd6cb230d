import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { argon2Verify } from '../../../src/accounts/credential-hasher.js';
import { ManualClock } from '../../../src/clock.js';
import { badgeCodeHash, normalizeBadgeCode } from '../../../src/formats/badge-code.js';
import {
  drawCredentials, hashCredentials, holders, selectUsers, storeCredentials,
} from '../../../src/roster/class-credentials.js';
import { putClass, putVisitor } from '../../helpers/class-roster.js';

async function school(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-class-credentials-'));
  const store = openSqliteStore(join(dir, 'lanyard.db'), new ManualClock());
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const org = await store.upsertOrganisation({ slug: 'river', name: 'River School' });
  const teacher = await store.upsertUser({ organisationId: org.id, username: 'tess', givenName: 'Tess', familyName: 'Teacher', type: 'teacher' });
  const cls = await putClass(store, {
    organisationId: org.id, sourcedId: '3b', title: 'Class 3B', prefix: 'p',
    pupils: [['Zoë', 'Ng'], ['Ada', 'Jones'], ['Ben', 'Jones'], ['Cai', 'Wu']],
    others: [{ user: teacher, role: 'teacher' }],
  });
  return { store, org, teacher, cls, dir };
}

t.test('selectUsers: a class\'s pupils who can sign in, by family then given name, then the users named, each once', async (t) => {
  const { store, cls, teacher } = await school(t);
  const [zoe, ada, ben, cai] = cls.pupils as [typeof cls.pupils[0], typeof cls.pupils[0], typeof cls.pupils[0], typeof cls.pupils[0]];
  await store.setSuspended(cai.id, '2027-01-01T00:00:00.000Z');
  const picked = await selectUsers(store, { inClass: cls.class, named: [teacher, ada] });
  t.same(picked.users.map((u) => u.username), [ada.username, ben.username, zoe.username, 'tess'], 'Jones Ada, Jones Ben, Ng; then the teacher named; Ada once');
  t.same(picked.unable.map((u) => u.username), [cai.username], 'the suspended pupil is left out, and said');
  t.same((await selectUsers(store, { named: [teacher] })).users.map((u) => u.username), ['tess'], 'named users alone');
});

t.test('holders: who of the users given already has a credential of each kind, each in their own organisation', async (t) => {
  const { store, org, cls } = await school(t);
  const [zoe, ada] = cls.pupils;
  // A pupil of the class whose own school is another one of the district (a member of this one).
  const hill = await store.upsertOrganisation({ slug: 'hill', name: 'Hill School' });
  const eve = await store.upsertUser({ organisationId: hill.id, username: 'eve', givenName: 'Eve', familyName: 'Hill', type: 'student' });
  await putVisitor(store, cls.class, eve, 'student');
  const other = await store.upsertUser({ organisationId: hill.id, username: 'olaf', givenName: 'Olaf', familyName: 'Hill', type: 'student' });
  await store.setCredential(zoe!.id, 'emoji', 'emoji-hash');
  await store.setCredential(ada!.id, 'password', 'password-hash');
  await store.issueBadge(ada!.id, org.id, 'badge-hash');
  for (const kind of ['emoji', 'password'] as const) await store.setCredential(eve.id, kind, `eve-${kind}`);
  await store.issueBadge(eve.id, hill.id, 'eve-badge');
  await store.setCredential(other.id, 'emoji', 'not-in-the-class');
  const { users } = await selectUsers(store, { inClass: cls.class });
  t.ok(users.some((u) => u.id === eve.id), 'Eve is one of the class\'s pupils');
  t.same([...await holders(store, users, 'emoji')].sort(), [zoe!.id, eve.id].sort());
  t.same([...await holders(store, users, 'password')].sort(), [ada!.id, eve.id].sort());
  t.same([...await holders(store, users, 'badge')].sort(), [ada!.id, eve.id].sort());
  t.same([...await holders(store, [zoe!], 'emoji')], [zoe!.id], 'only of the users given');
});

t.test('draw, hash, store: each user gets the credential drawn for them, hashed with argon2id', async (t) => {
  const { store, cls } = await school(t);
  for (const method of ['emoji', 'password', 'badge'] as const) {
    const drawn = drawCredentials(cls.pupils, method);
    t.same(drawn.map((d) => d.user.id), cls.pupils.map((u) => u.id), `${method}: one each, in order`);
    const prepared = await hashCredentials(drawn);
    const stored = await storeCredentials(store, prepared);
    t.same({ stored: stored.stored.map((p) => p.user.id), failed: stored.failed }, { stored: cls.pupils.map((u) => u.id), failed: [] }, `${method}: every one stored`);
    for (const p of prepared) {
      if (p.method === 'badge') {
        t.equal((await store.findBadge(badgeCodeHash(normalizeBadgeCode(p.badge.code)!)))?.userId, p.user.id, 'badge: the printed code is the user\'s badge');
        continue;
      }
      const plain = p.method === 'emoji' ? p.pictures.join(',') : p.password;
      t.match(p.hash, /^\$argon2id\$/);
      t.ok(await argon2Verify((await store.getCredential(p.user.id, p.method))!, plain), `${method}: ${p.user.username}'s stored hash takes what is printed`);
    }
  }
});

t.test('storeCredentials: a write the store refuses fails alone; the result says whose were stored and whose not', async (t) => {
  const { store, cls, dir } = await school(t);
  const [zoe, ada, ben, cai] = cls.pupils;
  await store.setCredential(ben!.id, 'password', 'bens-hash');
  const db = new Database(join(dir, 'lanyard.db'));
  db.exec(`CREATE TRIGGER refuse_ben BEFORE UPDATE ON credentials WHEN NEW.user_id = '${ben!.id}' BEGIN SELECT RAISE(ABORT, 'refused'); END;`);
  db.close();
  const prepared = await hashCredentials(drawCredentials(cls.pupils, 'password'));
  const result = await storeCredentials(store, prepared);
  t.same(result.stored.map((p) => p.user.id), [zoe!.id, ada!.id, cai!.id], 'the others, in order');
  t.same(result.failed.map((f) => [f.prepared.user.id, (f.error as Error).message]), [[ben!.id, 'refused']], 'Ben\'s write, with why');
  t.equal(await store.getCredential(ben!.id, 'password'), 'bens-hash', 'his credential is as it was');
  t.ok(await store.getCredential(cai!.id, 'password'), 'the others have theirs');
});
