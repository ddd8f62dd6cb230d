import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { RECORD_IDS_HASHED } from '../../adapters/record-ids.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { startRedis } from '../helpers/redis-server.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { DEMO_CALLBACK, demoTokenRequest } from '../helpers/tokens.js';

/**
 * Secrets hashed at rest: whoever reads the store (its file, a backup, Redis) finds no code, token or session
 * cookie value it could use, only their SHA-256; and every one of them still works.
 */

const AUTHORIZE = `/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(DEMO_CALLBACK)}&response_type=code&scope=openid&nonce=n-1`;
const hashed = (value: string) => `sha256:${createHash('sha256').update(value).digest('base64url')}`;

const token = (lanyard: Lanyard, form: Record<string, string>) => demoTokenRequest(lanyard.url, form);

const userinfo = async (lanyard: Lanyard, accessToken: string) =>
  (await fetch(`${lanyard.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })).status;

/** Signs the teacher in, exchanges the code and refreshes once: every secret value that passed, by name. */
async function issueEverything(t: Test, lanyard: Lanyard) {
  const browser = new HttpBrowser();
  const callback = await signIn(browser, lanyard.url, `${lanyard.url}${AUTHORIZE}`, TEACHER);
  const code = callback.searchParams.get('code')!;
  const session = browser.cookies.get('_session')!;
  t.ok(code && session, 'a code and a session cookie');
  const exchanged = await token(lanyard, { grant_type: 'authorization_code', code, redirect_uri: DEMO_CALLBACK });
  t.equal(exchanged.status, 200, 'the code exchanges');
  const refreshed = await token(lanyard, { grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token! });
  t.equal(refreshed.status, 200, 'the refresh token refreshes');
  return {
    browser,
    secrets: {
      code, session, accessToken: exchanged.body.access_token!, refreshToken: exchanged.body.refresh_token!,
      newAccessToken: refreshed.body.access_token!, newRefreshToken: refreshed.body.refresh_token!,
    },
  };
}

/** Each still works: the session signs in again without a form, the tokens open userinfo; a replay revokes. */
async function stillWorks(t: Test, lanyard: Lanyard, browser: HttpBrowser, s: Record<string, string>) {
  const again = location(await browser.get(`${lanyard.url}${AUTHORIZE}`), lanyard.url);
  t.equal(again.origin + again.pathname, DEMO_CALLBACK, 'the session cookie is found: straight back to the app');
  t.ok(again.searchParams.get('code'), 'with a new code');
  t.equal(await userinfo(lanyard, s.newAccessToken!), 200, 'the access token is found');
  const replay = await token(lanyard, { grant_type: 'refresh_token', refresh_token: s.refreshToken! });
  t.equal(replay.body.error, 'invalid_grant', 'the used refresh token, again: invalid_grant');
  t.equal(await userinfo(lanyard, s.newAccessToken!), 401, 'and the grant’s tokens are revoked (RFC 6749 §10.4)');
}

t.test('SQLite: the database file holds no code, token or session cookie value', async (t) => {
  const lanyard = await startLanyard(t);
  const { browser, secrets } = await issueEverything(t, lanyard);
  const db = new Database(join(lanyard.dir, 'lanyard.db'), { readonly: true });
  t.teardown(() => db.close());
  const ids = (db.prepare('SELECT id FROM oidc_records WHERE model = ?').all('AccessToken') as { id: string }[]).map((r) => r.id);
  t.ok(ids.includes(hashed(secrets.newAccessToken)), 'the access token is stored by its SHA-256 (the check below sees the records)');
  const files = ['lanyard.db', 'lanyard.db-wal'].map((f) => join(lanyard.dir, f)).filter((f) => existsSync(f));
  const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
  t.ok(bytes.includes(hashed(secrets.newAccessToken)), `the files read (${files.length}) hold the records`);
  for (const [name, value] of Object.entries(secrets)) t.notOk(bytes.includes(value), `no ${name} in the database or its log`);
  await stillWorks(t, lanyard, browser, secrets);
});

t.test('Redis: no key, field or value holds a code, token or session cookie value', async (t) => {
  const redis = await startRedis(t);
  const lanyard = await startLanyard(t, {
    env: { LANYARD_STORE: redis.url, LANYARD_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') },
  });
  const { browser, secrets } = await issueEverything(t, lanyard);
  const client = new Redis({ host: redis.host, port: redis.port, lazyConnect: true, maxRetriesPerRequest: 1 });
  t.teardown(() => client.disconnect());
  await client.connect();
  let everything = '';
  for (const key of await client.keys('*')) {
    const type = await client.type(key);
    const value = type === 'hash' ? await client.hgetall(key) : type === 'set' ? await client.smembers(key)
      : type === 'zset' ? await client.zrange(key, 0, -1, 'WITHSCORES') : type === 'string' ? await client.get(key) : type;
    everything += `${key}\n${JSON.stringify(value)}\n`;
  }
  t.ok(everything.includes(hashed(secrets.newAccessToken)), 'the access token is stored by its SHA-256 (the check below sees the records)');
  for (const [name, value] of Object.entries(secrets)) t.notOk(everything.includes(value), `no ${name} in Redis`);
  await stillWorks(t, lanyard, browser, secrets);
});

t.test('a token an older version stored by its value (another instance, mid-upgrade) is still found', async (t) => {
  const lanyard = await startLanyard(t);
  t.type(await lanyard.store.getSetting(RECORD_IDS_HASHED), 'string', 'a new store is marked converted at startup');
  const { secrets } = await issueEverything(t, lanyard);
  const stored = await lanyard.store.oidc.find('AccessToken', hashed(secrets.newAccessToken));
  t.notOk(stored && 'jti' in stored, 'the stored payload does not repeat the token');
  const plain = 'older-instance-token-0123456789abcdefghijklmnopq';
  await lanyard.store.oidc.upsert('AccessToken', plain, { ...stored, jti: plain }, 600);
  t.equal(await userinfo(lanyard, plain), 200, 'found by its value');
  t.equal(await userinfo(lanyard, `${plain}x`), 401, 'and nothing else is');
});
