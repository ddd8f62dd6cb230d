import t from 'tap';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { DEMO_CLIENT } from '../helpers/relying-party.js';

/**
 * Malformed posts to the login screens (too large, wrong content type) are answered with an HTML page,
 * never JSON or a stack trace, and lose nothing: the sign-in can go on afterwards.
 */
t.test('a login form too large or of the wrong type: an HTML error page, and the sign-in still works', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const q = new URLSearchParams({
    client_id: DEMO_CLIENT.id, redirect_uri: DEMO_CLIENT.redirectUri, response_type: 'code', scope: 'openid', organisation: 'demo-school',
  });
  const interaction = location(await browser.get(`${lanyard.url}/oauth/authorize?${q.toString()}`), lanyard.url);
  t.match(interaction.pathname, /^\/interaction\/[\w-]+$/, 'an interaction started');
  const passwordUrl = `${interaction.origin}${interaction.pathname}/password?org=demo-school`;

  const huge = await browser.request(passwordUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `username=teacher&password=${'x'.repeat(64 * 1024)}`,
  });
  t.equal(huge.status, 413, 'too large: 413');
  t.match(huge.headers.get('content-type'), /^text\/html/, 'as a page');
  const hugePage = await huge.text();
  t.match(hugePage, /That did not work/, 'a friendly message');
  t.notMatch(hugePage, /at .*\.ts:\d+|FST_/, 'no stack trace or internal code');

  const json = await browser.request(passwordUrl, {
    method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<username>teacher</username>',
  });
  t.equal(json.status, 415, 'wrong content type: 415');
  t.match(json.headers.get('content-type'), /^text\/html/, 'as a page');

  const page = await (await browser.get(passwordUrl)).text();
  t.match(page, /name="password"/, 'the password form still opens for this sign-in');
});
