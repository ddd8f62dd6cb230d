import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as client from 'openid-client';
import t from 'tap';
import { openSqliteStore } from '../../adapters/sqlite.js';
import { SCHEMA_VERSION } from '../../adapters/sqlite/migrate.js';
import { ManualClock } from '../../src/clock.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { authorizationRequest, relyingParty } from '../helpers/relying-party.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { projectRoot } from '../../src/package-files.js';

/**
 * A database written by Lanyard 0.1.0 (test/fixtures/lanyard-0.1.0.db, before schema versions existed;
 * its manifest lists every row) upgrades in place at startup with nothing lost, and keeps working.
 */
const FIXTURE = join(projectRoot, 'test/fixtures/lanyard-0.1.0.db');
const manifest = JSON.parse(readFileSync(join(projectRoot, 'test/fixtures/lanyard-0.1.0.json'), 'utf8')) as {
  clock: string; key_encryption_key_base64: string; tables: Record<string, number>;
  organisations: { id: string; slug: string; name: string }[];
  users: { id: string; organisation_id: string; username: string }[];
  credentials: { user_id: string; kind: 'password' | 'emoji'; hash: string }[];
  badges: { code_hash: string; user_id: string }[];
  signing_keys: { kid: string; month: string }[];
  settings: string[];
  oidc_records: { model: string; id: string; grant_id: string | null; consumed: boolean }[];
};

function copyFixture(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-upgrade-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(FIXTURE, join(dir, 'lanyard.db'));
  return dir;
}

t.test('a 0.1.0 database upgrades to the current schema with every row kept', async (t) => {
  const dir = copyFixture(t);
  const path = join(dir, 'lanyard.db');
  const raw = new Database(path, { readonly: true });
  t.equal(raw.pragma('user_version', { simple: true }), 0, 'the fixture has no schema version');
  raw.close();

  const store = openSqliteStore(path, new ManualClock(new Date(manifest.clock)));
  t.teardown(() => store.close());
  const db = new Database(path, { readonly: true });
  t.teardown(() => db.close());
  t.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION, 'migrated to the current version');
  for (const [table, rows] of Object.entries(manifest.tables)) {
    t.equal((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, rows, `${table}: ${rows} rows kept`);
  }
  for (const org of manifest.organisations) t.match(await store.findOrganisation(org.slug), org, `organisation ${org.slug}`);
  for (const u of manifest.users) t.match(await store.findUser(u.id), { organisationId: u.organisation_id, username: u.username }, `user ${u.username}, same id`);
  for (const c of manifest.credentials) t.equal(await store.getCredential(c.user_id, c.kind), c.hash, `${c.kind} credential of ${c.user_id}`);
  for (const b of manifest.badges) t.equal((await store.findBadge(b.code_hash))?.userId, b.user_id, 'badge');
  t.same((await store.listKeys()).map((k) => k.kid), manifest.signing_keys.map((k) => k.kid), 'signing keys');
  for (const name of manifest.settings) t.type(await store.getSetting(name), 'string', `setting ${name}`);
  for (const r of manifest.oidc_records) {
    const found = await store.oidc.find(r.model, r.id);
    t.ok(found, `${r.model} ${r.id}`);
    t.equal(found?.consumed !== undefined, r.consumed, `${r.model}: consumed state kept`);
  }
  t.same(await store.listClients(), [], 'the new clients table starts empty');
});

t.test('Lanyard starts on the upgraded database: same signing key, same users, sign-in and tokens work', async (t) => {
  const dir = copyFixture(t);
  const month = manifest.signing_keys[0]!.month;
  const lanyard = await startLanyard(t, {
    dir,
    clock: new ManualClock(new Date(`${month}-25T12:00:00.000Z`)),
    env: { LANYARD_KEY_ENCRYPTION_KEY: manifest.key_encryption_key_base64 },
  });
  const jwks = await (await fetch(`${lanyard.url}/.well-known/jwks.json`)).json() as { keys: { kid: string }[] };
  t.same(jwks.keys.map((k) => k.kid), [manifest.signing_keys[0]!.kid], 'the 0.1.0 key signs: decrypted, not replaced');
  t.ok(await lanyard.store.findClient('demo-app'), 'config clients written to the store at startup');

  const rp = await relyingParty(lanyard.url);
  const req = await authorizationRequest(rp);
  const callback = await signIn(new HttpBrowser(), lanyard.url, req.url, TEACHER);
  const tokens = await client.authorizationCodeGrant(rp, callback, {
    expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier,
  });
  const teacher = manifest.users.find((u) => u.username === 'teacher')!;
  t.equal(tokens.claims()?.sub, teacher.id, 'the teacher signs in with the 0.1.0 password, same sub');
  const header = JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString('utf8')) as { kid: string };
  t.equal(header.kid, manifest.signing_keys[0]!.kid, 'ID token signed with the upgraded key');

  // 0.1.0 stored codes, tokens and sessions by their values: now by their SHA-256, and still valid.
  const db = new Database(join(dir, 'lanyard.db'), { readonly: true });
  t.teardown(() => db.close());
  for (const r of manifest.oidc_records.filter((r) => r.model !== 'Grant')) {
    const row = db.prepare('SELECT count(*) AS n FROM oidc_records WHERE id = ? OR instr(payload, ?) > 0').get(r.id, r.id) as { n: number };
    t.equal(row.n, 0, `${r.model}: its value is no longer stored`);
    t.ok(await lanyard.store.oidc.find(r.model, `sha256:${createHash('sha256').update(r.id).digest('base64url')}`), `${r.model}: stored by its hash`);
  }
  // Nor are the old values left in the file's free pages or its write-ahead log (SQLite's secure_delete).
  const bytes = Buffer.concat(['lanyard.db', 'lanyard.db-wal'].map((f) => join(dir, f)).filter((f) => existsSync(f)).map((f) => readFileSync(f)));
  for (const r of manifest.oidc_records.filter((r) => r.model !== 'Grant')) t.notOk(bytes.includes(r.id), `${r.model}: not in the files`);
  const accessToken = manifest.oidc_records.find((r) => r.model === 'AccessToken')!.id;
  const info = await fetch(`${lanyard.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  t.equal(info.status, 200, 'the 0.1.0 access token still opens userinfo');
  t.equal((await info.json() as { sub: string }).sub, teacher.id, 'as the teacher');
});
