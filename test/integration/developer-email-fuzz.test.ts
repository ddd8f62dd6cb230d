import t from 'tap';
import { systemClock } from '../../src/clock.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { writeConfig } from '../helpers/config-file.js';
import { createDeveloper, csrfOf, DEVELOPER_PASSWORD, formCsrf } from '../helpers/developer.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { fuzzString as fuzz, random, segment } from '../helpers/fuzz.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * A bounded fuzz of the routes that take an email address or answer a team invitation: sign-up, sign-in,
 * the team form and the team API, accepting an invitation (page and API) and an invitation's link. Inputs
 * mix addresses with invisible, direction and control characters, odd shapes, lengths and JSON types.
 * Every answer is below 500.
 */

const ROUNDS = 60; // × 7 routes = 420 requests

const PIECES = ['carol', '@', '.', 'example', 'org', '\u200B', '\u200D', '\uFEFF', '\u00AD', '\u2060', '\u202E', '\u2066', '\u200F', '\u061C',
  '\u0000', '\u0007', '\n', '\r\n', '\u0085', '\u009F', ' ', 'Bücher', 'ｅ', 'محمد', '😀', '<script>', '"', "'", '\\', '%00', '&', '=', 'xn--', '-',
  'A'.repeat(300), '@@', '[', ']', '\uD800', '\uFFFF'];

const fuzzString = (r: () => number): string => fuzz(r, PIECES);

function fuzzJson(r: () => number): string {
  const email = [fuzzString(r), 5, null, [], {}, true, 'a@b.example'][Math.floor(r() * 7)];
  const shapes = [JSON.stringify({ email }), JSON.stringify({ email, extra: 1 }), JSON.stringify({ token: email }), JSON.stringify([email]),
    '{"email":', fuzzString(r), 'null', JSON.stringify({ token: fuzzString(r) })];
  return shapes[Math.floor(r() * shapes.length)]!;
}

t.test(`${ROUNDS * 7} malformed requests to the routes that take an address or answer an invitation: no 5xx`, async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: writeConfig((c) => { c.developer_signup = 'open'; }) } });
  const ada = await createDeveloper(lanyard, { name: 'Ada' });
  const token = (await new ApiTokens({ store: lanyard.store, clock: systemClock, log: lanyard.app.log })
    .create((await lanyard.store.findDeveloper(ada.id))!, { label: 'fuzz', expiresInDays: 30 })).token;
  const api = (method: string, path: string, body: string, type = 'application/json') =>
    fetch(`${lanyard.url}/developer/api${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });
  const { json: app } = await (await api('POST', '/apps', JSON.stringify({ name: 'Fuzzed' }))).json().then((json) => ({ json }));
  const clientId = (app as { client_id: string }).client_id;
  const adaCsrf = csrfOf(await (await ada.browser.get(`${lanyard.url}/developer/apps/${clientId}/team`)).text());
  const visitor = new HttpBrowser();
  const { csrf: preCsrf } = await formCsrf(visitor, `${lanyard.url}/developer/sign-up`);

  const r = random(41);
  const statuses = new Map<string, number[]>();
  const seen = (route: string, status: number) => statuses.set(route, [...(statuses.get(route) ?? []), status]);
  for (let i = 0; i < ROUNDS; i += 1) {
    const csrf = r() < 0.8 ? preCsrf : fuzzString(r);
    seen('POST /developer/sign-up', (await visitor.post(`${lanyard.url}/developer/sign-up`, {
      csrf, email: fuzzString(r), displayName: r() < 0.5 ? 'Fuzz' : fuzzString(r), password: DEVELOPER_PASSWORD, confirm: DEVELOPER_PASSWORD,
    })).status);
    seen('POST /developer/sign-in', (await visitor.post(`${lanyard.url}/developer/sign-in`, { csrf, email: fuzzString(r), password: fuzzString(r) })).status);
    seen('POST team (page)', (await ada.browser.post(`${lanyard.url}/developer/apps/${clientId}/team`, { csrf: r() < 0.9 ? adaCsrf : fuzzString(r), email: fuzzString(r) })).status);
    seen('POST team (API)', (await api('POST', `/apps/${clientId}/team`, fuzzJson(r), r() < 0.9 ? 'application/json' : 'text/plain')).status);
    seen('POST accept (page)', (await ada.browser.post(`${lanyard.url}/developer/invitations/${segment(r() < 0.5 ? clientId : fuzzString(r))}/accept`,
      { csrf: adaCsrf, token: fuzzString(r) })).status);
    seen('POST accept (API)', (await api('POST', `/invitations/${segment(r() < 0.5 ? clientId : fuzzString(r))}/accept`, fuzzJson(r))).status);
    seen('GET team invitation link', (await ada.browser.get(`${lanyard.url}/developer/team-invitations/${segment(fuzzString(r) || 'x')}`)).status);
  }
  let total = 0;
  for (const [route, list] of statuses) {
    total += list.length;
    t.same(list.filter((s) => s >= 500), [], `${route}: ${list.length} requests, none 5xx (${[...new Set(list)].sort().join(', ')})`);
  }
  t.equal(total, ROUNDS * 7);
  t.notOk(lanyard.logs.some((l) => /"level":50/.test(l)), 'no error logged');
});
