import t from 'tap';
import * as client from 'openid-client';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { authorizationRequest, relyingParty } from '../helpers/relying-party.js';

t.test('nothing is lost on restart: session, refresh token, users, keys', async (t) => {
  const first = await startLanyard(t);
  const port = Number(new URL(first.url).port);
  const rp = await relyingParty(first.url);
  const browser = new HttpBrowser();
  const req = await authorizationRequest(rp);
  const callback = await signIn(browser, first.url, req.url, TEACHER);
  const tokens = await client.authorizationCodeGrant(rp, callback, {
    expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier,
  });
  const sub = tokens.claims()!.sub;
  const keysBefore = await (await fetch(`${first.url}/.well-known/jwks.json`)).text();
  await first.stop();

  const second = await startLanyard(t, { dir: first.dir, port });
  t.equal(await (await fetch(`${second.url}/.well-known/jwks.json`)).text(), keysBefore, 'same key set after restart');

  const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
  t.equal(refreshed.claims()?.sub, sub, 'refresh token issued before the restart still works');

  const userinfo = await client.fetchUserInfo(rp, tokens.access_token, sub);
  t.equal(userinfo.email, 'teacher@demo-school.example', 'access token issued before the restart still works');

  const again = await authorizationRequest(rp);
  const res = await browser.get(again.url);
  const to = new URL(res.headers.get('location')!, second.url);
  t.equal(`${to.origin}${to.pathname}`, 'http://localhost:8080/callback', 'browser session survives: no login screen');
  const next = await client.authorizationCodeGrant(rp, to, {
    expectedNonce: again.nonce, expectedState: again.state, pkceCodeVerifier: again.codeVerifier,
  });
  t.equal(next.claims()!.sub, sub, 'same user, same sub');
});
