import t from 'tap';
import { systemClock } from '../../src/clock.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { csrfOf } from '../helpers/developer.js';
import { fuzzString, pick, random, segment } from '../helpers/fuzz.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { liveApp } from '../helpers/live-app.js';
import { markClassroomDevice } from '../helpers/spray.js';

/**
 * A bounded fuzz of the routes the hardening of live apps and Lanyard's own pages touched: a live app's URL
 * changes (API and pages), withdrawing a change, the classroom-device form, and the pages that spend their
 * own client's code. Every answer is below 500, and nothing is logged as an error.
 */

const ROUNDS = 40; // × 10 routes = 400 requests
const PIECES = ['https://', 'http://', 'аpple.com', 'xn--pple-43d.com', 'example.org', '/cb', '#frag', '?x=1', '*', 'localhost:8080', '127.0.0.1',
  '\u0000', '\u202E', '\u200B', '\n', ' ', '%', '%00', '😀', '"', '<', 'javascript:', 'user:pass@', 'A'.repeat(2100), '\uD800', '\\'];

t.test(`${ROUNDS * 10} malformed requests to a live app's changes, the classroom-device form and the own-code pages: no 5xx`, async (t) => {
  const lanyard = await startLanyard(t);
  const { owner: ada, account, clientId } = await liveApp(lanyard, { owner: 'Ada', app: 'Fuzzed', callback: 'https://fuzz.example/cb' });
  const token = (await new ApiTokens({ store: lanyard.store, clock: systemClock, log: lanyard.app.log }).create(account, { label: 'fuzz', expiresInDays: 30 })).token;
  const api = (method: string, path: string, body?: string) => fetch(`${lanyard.url}/developer/api${path}`, {
    method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body,
  });
  const pageCsrf = csrfOf(await (await ada.browser.get(`${lanyard.url}/developer/apps/${clientId}/credentials`)).text());
  const cart = new HttpBrowser();
  await markClassroomDevice(t, cart, lanyard.url, 'Fuzz cart');
  const stranger = new HttpBrowser();

  const r = random(2041);
  const s = () => fuzzString(r, PIECES);
  const value = () => pick(r, [s(), s(), 5, null, [], {}, true]);
  const json = (field: string) => pick(r, [JSON.stringify({ [field]: value() }), JSON.stringify([value()]), `{"${field}":`, s(), 'null']);
  const statuses = new Map<string, number[]>();
  const seen = async (route: string, res: Promise<Response>) => {
    const answer = await res;
    await answer.arrayBuffer();
    statuses.set(route, [...(statuses.get(route) ?? []), answer.status]);
  };
  for (let i = 0; i < ROUNDS; i += 1) {
    const csrf = r() < 0.8 ? pageCsrf : s();
    const change = r() < 0.3 ? 'abcdef012345' : s() || 'x';
    await seen('POST redirect_uris (API)', api('POST', `/apps/${clientId}/redirect_uris`, json('redirect_uri')));
    await seen('PUT logout_url (API)', api('PUT', `/apps/${clientId}/logout_url`, json('logout_url')));
    await seen('PUT initiate_login_uri (API)', api('PUT', `/apps/${clientId}/initiate_login_uri`, json('initiate_login_uri')));
    await seen('DELETE pending_changes (API)', api('DELETE', `/apps/${segment(r() < 0.8 ? clientId : s() || 'x')}/pending_changes/${segment(change)}`));
    await seen('POST callbacks (page)', ada.browser.post(`${lanyard.url}/developer/apps/${clientId}/callbacks`, { csrf, redirect_uri: s() }));
    await seen('POST logout-url (page)', ada.browser.post(`${lanyard.url}/developer/apps/${clientId}/logout-url`, { csrf, logout_url: s() }));
    await seen('POST withdraw (page)', ada.browser.post(`${lanyard.url}/developer/apps/${clientId}/pending-changes/${segment(change)}/withdraw`, { csrf }));
    await seen('POST /classroom-device', cart.post(`${lanyard.url}/classroom-device`, { csrf: s(), name: s() }));
    await seen('GET /sign-in/done?code=', stranger.get(`${lanyard.url}/sign-in/done?code=${encodeURIComponent(s().replace(/\p{Cs}/gu, ''))}`));
    await seen('GET /classroom-device?code=', stranger.get(`${lanyard.url}/classroom-device?code=${encodeURIComponent(s().replace(/\p{Cs}/gu, ''))}`));
  }
  let total = 0;
  for (const [route, list] of statuses) {
    total += list.length;
    t.same(list.filter((x) => x >= 500), [], `${route}: ${list.length} requests, none 5xx (${[...new Set(list)].sort().join(', ')})`);
  }
  t.equal(total, ROUNDS * 10);
  t.same((await lanyard.store.findClient(clientId))!.redirectUris, ['https://fuzz.example/cb'], 'the live app’s callback URLs are still the approved ones');
  t.notOk(lanyard.logs.some((l) => /"level":50/.test(l)), 'no error logged');
});
