import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import t from 'tap';
import { HttpBrowser } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { type RedisServer, startRedis, startSentinelSet } from '../helpers/redis-server.js';
import { authorizationRequest, relyingParty } from '../helpers/relying-party.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';

/**
 * Lanyard on a real Redis when Redis fails: restarted with AOF in the middle of flows (nothing acknowledged
 * is lost), stopped (503s and /readyz false, never a 500 or a crash), started again (recovery without a
 * restart of Lanyard), and a Sentinel failover with flows before and after.
 */
const redisEnv = (url: string) => ({
  LANYARD_STORE: url,
  LANYARD_REDIS_PREFIX: `faults-${randomBytes(4).toString('hex')}`,
  LANYARD_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
});

/** A full sign-in and code exchange through openid-client; resolves the tokens. */
async function flow(lanyard: Lanyard, browser = new HttpBrowser()) {
  const rp = await relyingParty(lanyard.url);
  const req = await authorizationRequest(rp);
  const callback = await signIn(browser, lanyard.url, req.url, TEACHER);
  const tokens = await client.authorizationCodeGrant(rp, callback, {
    expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier,
  });
  return { rp, tokens, browser };
}

/** Retries `probe` until it answers `status` (bounded: 20 s). */
async function waitForStatus(url: string, status: number): Promise<number> {
  let last = 0;
  for (let i = 0; i < 100; i += 1) {
    last = (await fetch(url)).status;
    if (last === status) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  return last;
}

const no500 = (lanyard: Lanyard) => !lanyard.logs.some((l) => /"statusCode":5(0[0-2]|04)/.test(l));

t.test('Redis restarted with AOF in the middle of flows: nothing acknowledged is lost', async (t) => {
  const redis = await startRedis(t, { aof: true });
  const lanyard = await startLanyard(t, { env: redisEnv(redis.url) });
  const { rp, tokens, browser } = await flow(lanyard);
  const sub = tokens.claims()!.sub;
  const jwksBefore = await (await fetch(`${lanyard.url}/.well-known/jwks.json`)).text();

  await redis.stop();
  await redis.start();
  t.equal(await waitForStatus(`${lanyard.url}/readyz`, 200), 200, 'ready again after the restart');
  const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
  t.equal(refreshed.claims()?.sub, sub, 'the refresh token issued before the restart works');
  t.equal((await client.fetchUserInfo(rp, tokens.access_token, sub)).sub, sub, 'the access token too');
  t.equal(await (await fetch(`${lanyard.url}/.well-known/jwks.json`)).text(), jwksBefore, 'same signing key');
  const again = await authorizationRequest(rp);
  const res = await browser.get(again.url);
  t.match(res.headers.get('location') ?? '', /^http:\/\/localhost:8080\/callback\?code=/, 'the browser session survived: no login screen');
  t.ok(no500(lanyard), 'no 5xx other than 503 was logged');
});

t.test('Redis stopped: 503 with Retry-After and /readyz false, no 500, no crash; started again: recovers by itself', async (t) => {
  const redis: RedisServer = await startRedis(t, { aof: true });
  const lanyard = await startLanyard(t, { env: redisEnv(redis.url) });
  const { rp, tokens } = await flow(lanyard);
  await redis.stop();

  const ready = await fetch(`${lanyard.url}/readyz`);
  t.equal(ready.status, 503, '/readyz false');
  t.ok(ready.headers.get('retry-after'), '/readyz: Retry-After');
  t.equal((await fetch(`${lanyard.url}/healthz`)).status, 200, '/healthz (liveness) still answers');
  const authorize = await fetch((await authorizationRequest(rp)).url, { redirect: 'manual', headers: { accept: 'text/html' } });
  t.equal(authorize.status, 503, 'authorize: 503');
  t.ok(authorize.headers.get('retry-after'), 'authorize: Retry-After');
  const token = await fetch(`${lanyard.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }),
  });
  t.equal(token.status, 503, 'token: 503');
  t.same(await token.json(), { error: 'temporarily_unavailable', error_description: 'the service is temporarily unavailable; try again in a moment' }, 'token: temporarily_unavailable');
  t.ok(token.headers.get('retry-after'), 'token: Retry-After');
  const logout = await fetch(`${lanyard.url}/oauth/logout?client_id=demo-app`, { redirect: 'manual' });
  t.equal(logout.status, 503, 'logout: 503');

  await redis.start();
  t.equal(await waitForStatus(`${lanyard.url}/readyz`, 200), 200, '/readyz true again without restarting Lanyard');
  const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
  t.ok(refreshed.access_token, 'the refresh token refused during the outage works now: nothing was consumed');
  const second = await flow(lanyard);
  t.ok(second.tokens.id_token, 'a new sign-in works');
  t.ok(no500(lanyard), 'no 5xx other than 503 was logged');
});

t.test('Sentinel failover: flows before and after, the primary killed and a replica promoted', async (t) => {
  const set = await startSentinelSet(t);
  const lanyard = await startLanyard(t, { env: redisEnv(set.url) });
  const before = await flow(lanyard);
  const sub = before.tokens.claims()!.sub;
  await set.failover();
  t.equal(await waitForStatus(`${lanyard.url}/readyz`, 200), 200, 'ready on the promoted replica');
  const refreshed = await client.refreshTokenGrant(before.rp, before.tokens.refresh_token!);
  t.equal(refreshed.claims()?.sub, sub, 'a refresh token from before the failover works after it');
  const after = await flow(lanyard);
  t.equal(after.tokens.claims()?.sub, sub, 'a new sign-in works after the failover');
  t.ok(no500(lanyard), 'no 5xx other than 503 was logged');
});
