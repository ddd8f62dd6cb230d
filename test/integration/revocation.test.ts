import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { writeConfig } from '../helpers/config-file.js';

const CALLBACK = 'http://localhost:8080/callback';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function post(url: string, auth: string, form: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, string> };
}

t.test('revocation (advertised in discovery) works for the owning client only', async (t) => {
  const config = writeConfig((c) => {
    c.clients.push({ client_id: 'other-app', name: 'Other', secrets: ['other-app-secret'], redirect_uris: ['https://other.example/cb'] });
  });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const authorize = `${lanyard.url}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid`;
  const callback = await signIn(new HttpBrowser(), lanyard.url, authorize, TEACHER);
  const demo = basic('demo-app', 'demo-app-secret');
  const tokens = await post(`${lanyard.url}/oauth/token`, demo, {
    grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: CALLBACK,
  });
  t.equal(tokens.status, 200);

  const stranger = await post(`${lanyard.url}/oauth/revoke`, basic('other-app', 'other-app-secret'), { token: tokens.body.refresh_token! });
  t.equal(stranger.status, 400, 'another client cannot revoke it');
  t.equal(stranger.body.error, 'invalid_request');

  const noAuth = await fetch(`${lanyard.url}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ token: 'x' }) });
  t.equal(noAuth.status, 401, 'revocation needs client authentication');

  const revoked = await post(`${lanyard.url}/oauth/revoke`, demo, { token: tokens.body.refresh_token!, token_type_hint: 'refresh_token' });
  t.equal(revoked.status, 200, 'revoked');
  const refresh = await post(`${lanyard.url}/oauth/token`, demo, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token! });
  t.equal(refresh.status, 400);
  t.equal(refresh.body.error, 'invalid_grant', 'a revoked refresh token no longer works');
});
