import t, { type Test } from 'tap';
import { actorOf, OPERATOR } from '../../src/developer/actor.js';
import { sandboxCredentials } from '../../src/developer/sandbox.js';
import { developmentApp, DEVELOPMENT_CALLBACK } from '../helpers/development-app.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { signIn } from '../helpers/sign-in.js';

/**
 * docs/developer-area.md → Going live: approving an app ends every grant it was given in development. A
 * sandbox user's refresh token stops refreshing (invalid_grant) and the access token stops reading /api/user
 * (401), so a live app never keeps acting as the sandbox school.
 */

async function goingLive(t: Test, lanyard: Lanyard): Promise<void> {
  const app = await developmentApp(lanyard);
  const basic = `Basic ${Buffer.from(`${app.clientId}:${app.secret}`).toString('base64')}`;
  const token = async (form: Record<string, string>) => {
    const res = await fetch(`${lanyard.url}/oauth/token`, {
      method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };
  const userApi = async (accessToken: string) => {
    const res = await fetch(`${lanyard.url}/api/user`, { headers: { authorization: `Bearer ${accessToken}` } });
    return { status: res.status, body: await res.text() };
  };

  const teacher = (await sandboxCredentials(lanyard.store)).users.find((u) => u.username === 'teacher')!;
  const authorize = new URL('/oauth/authorize', lanyard.url);
  for (const [k, v] of Object.entries({ client_id: app.clientId, redirect_uri: DEVELOPMENT_CALLBACK, response_type: 'code', scope: 'openid', nonce: 'n-live' })) {
    authorize.searchParams.set(k, v);
  }
  const callback = await signIn(new HttpBrowser(), lanyard.url, authorize, { username: 'teacher', password: teacher.password!, organisation: 'sandbox' });
  const issued = await token({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: DEVELOPMENT_CALLBACK });
  t.equal(issued.status, 200, 'the development app signed in the sandbox teacher');
  const { access_token: accessToken, refresh_token: refreshToken } = issued.body;
  t.ok(accessToken && refreshToken, 'with an access token and a refresh token');
  const before = await userApi(accessToken!);
  t.equal(before.status, 200, 'in development, /api/user answers');
  t.match(before.body, /"slug":"sandbox"/, 'with the sandbox school');
  const refreshed = await token({ grant_type: 'refresh_token', refresh_token: refreshToken! });
  t.equal(refreshed.status, 200, 'in development, the refresh token refreshes');
  const { access_token: accessToken2, refresh_token: refreshToken2 } = refreshed.body;

  await app.service.requestLive(actorOf(app.owner), app.clientId);
  await app.service.approve(OPERATOR, app.clientId);

  const after = await token({ grant_type: 'refresh_token', refresh_token: refreshToken2! });
  t.equal(after.status, 400, 'live: the refresh token from development is refused');
  t.equal(after.body.error, 'invalid_grant');
  for (const [what, at] of [['the first access token', accessToken!], ['the refreshed one', accessToken2!]] as const) {
    t.equal((await userApi(at)).status, 401, `live: ${what} no longer reads /api/user`);
  }
  t.ok(lanyard.logs.some((l) => l.includes('"event":"app.approved"') && /"sandboxRecordsRevoked":[1-9]/.test(l)), 'the approval is logged with what it revoked');
}

t.test('going live revokes the sandbox grants: refresh → invalid_grant, /api/user → 401', async (t) => {
  await goingLive(t, await startLanyard(t));
});

t.test('the same, on a Redis store', async (t) => {
  const redis = await startRedis(t, { aof: false });
  await goingLive(t, await startLanyard(t, {
    env: redisStoreEnv(redis.url, 'live'),
  }));
});
