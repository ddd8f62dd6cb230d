import t, { type Test } from 'tap';
import { systemClock } from '../../src/clock.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { writeConfig } from '../helpers/config-file.js';
import { apiClient } from '../helpers/developer-api-client.js';
import { createDeveloper, csrfOf, DEVELOPER_PASSWORD, formCsrf, signInDeveloper } from '../helpers/developer.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * Trust in a team invitation follows whether the account's address was verified, not the sign-up setting
 * (docs/developer-area.md → Teams). Eve signs up with Bob's address while sign-up is open; the operator
 * then switches sign-up to invitations. Before, Ada's invitation of bob@school.example was then accepted by
 * Eve from her apps page with no link (invite-only sign-up trusted every address), and Eve could change the
 * app's callback URLs.
 */

const LINK = /https?:\/\/[^"<\s]+\/developer\/team-invitations\/([A-Za-z0-9_-]{43})/;

/** Eve's account (bob@school.example), made by open sign-up; the data directory, stopped. */
async function madeUnderOpenSignUp(t: Test): Promise<string> {
  const open = await startLanyard(t, { env: { LANYARD_CONFIG: writeConfig((c) => { c.developer_signup = 'open'; }) } });
  const b = new HttpBrowser();
  const { csrf } = await formCsrf(b, `${open.url}/developer/sign-up`);
  const made = await b.post(`${open.url}/developer/sign-up`, { csrf, email: 'bob@school.example', displayName: 'Bob', password: DEVELOPER_PASSWORD, confirm: DEVELOPER_PASSWORD });
  t.equal(made.status, 303, 'Eve signed up as bob@school.example');
  t.equal((await open.store.findDeveloperByEmail('bob@school.example'))?.emailVerifiedAt, undefined, 'her address is not verified');
  await open.stop();
  return open.dir;
}

t.test('sign-up switched to invitations: an account made by open sign-up accepts a team invitation only with its link', async (t) => {
  const dir = await madeUnderOpenSignUp(t);
  const lanyard = await startLanyard(t, { dir }); // the demo configuration: developer_signup "invite"
  t.equal(lanyard.config.developerSignup, 'invite');
  const ada = await createDeveloper(lanyard, { name: 'Ada' });
  t.ok((await lanyard.store.findDeveloperByEmail(ada.email))?.emailVerifiedAt, 'an account from an invitation link: verified');
  const adaCsrf = csrfOf(await (await ada.browser.get(`${lanyard.url}/developer/apps/new`)).text());
  const reg = await ada.browser.post(`${lanyard.url}/developer/apps/new`, { csrf: adaCsrf, name: 'Reading Quest', description: '', homepage_url: '', logo_url: '' });
  const clientId = /app_[0-9a-f]{32}/.exec(reg.headers.get('location')!)![0];
  const team = `${lanyard.url}/developer/apps/${clientId}/team`;
  t.equal((await ada.browser.post(team, { csrf: adaCsrf, email: 'bob@school.example' })).status, 303);
  const teamPage = await (await ada.browser.get(team)).text();
  const token = LINK.exec(teamPage)?.[1];
  t.ok(token, 'the owner is given the link, whatever the sign-up setting');

  const eve = await signInDeveloper(lanyard, { email: 'bob@school.example', password: DEVELOPER_PASSWORD });
  const eveCsrf = csrfOf(await (await eve.get(`${lanyard.url}/developer`)).text());
  const list = await (await eve.get(`${lanyard.url}/developer`)).text();
  t.match(list, 'open the link the owner sent you', 'her apps page lists it, to accept through the link');
  t.notMatch(list, `/developer/invitations/${clientId}/accept`, 'with no Accept button');
  const refused = await eve.post(`${lanyard.url}/developer/invitations/${clientId}/accept`, { csrf: eveCsrf });
  t.equal(refused.status, 403, 'accepting with no link: 403');
  t.match(await refused.text(), 'accepted through the link');
  t.same((await lanyard.store.listTeam(clientId)).map((m) => m.role), ['owner', 'invited'], 'nobody joined');
  t.equal((await eve.post(`${lanyard.url}/developer/apps/${clientId}/callbacks`, { csrf: eveCsrf, redirect_uri: 'https://evil.example/cb' })).status, 404, 'nor can she change the app');
  t.ok(lanyard.logs.some((l) => l.includes('"event":"app.team_invitation_link_required"')), 'the refusal is logged');

  // Through the API too.
  const tokens = new ApiTokens({ store: lanyard.store, clock: systemClock, log: lanyard.app.log });
  const eveAccount = (await lanyard.store.findDeveloperByEmail('bob@school.example'))!;
  const bearer = (await tokens.create(eveAccount, { label: 'script', expiresInDays: 30 })).token;
  const call = apiClient(lanyard);
  t.match(await call(bearer, 'POST', `/invitations/${clientId}/accept`), { status: 403, json: { error: 'forbidden' } }, 'API, no link: 403');
  t.same((await lanyard.store.listTeam(clientId)).map((m) => m.role), ['owner', 'invited']);

  // The link is the proof: with it the holder of the address joins.
  const accepted = await eve.post(`${lanyard.url}/developer/invitations/${clientId}/accept`, { csrf: eveCsrf, token: token! });
  t.equal(accepted.status, 303, 'with the link: accepted');
  t.same((await lanyard.store.listTeam(clientId)).map((m) => [m.developerId, m.role]), [[ada.id, 'owner'], [eveAccount.id, 'member']]);
});

t.test('an account made through an invitation link accepts from its apps page, with no link, whatever the sign-up setting', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: writeConfig((c) => { c.developer_signup = 'open'; }) } });
  const ada = await createDeveloper(lanyard, { name: 'Ada' });
  const bob = await createDeveloper(lanyard, { name: 'Bob' });
  const tokens = new ApiTokens({ store: lanyard.store, clock: systemClock, log: lanyard.app.log });
  const bearer = async (id: string) => (await tokens.create((await lanyard.store.findDeveloper(id))!, { label: 'script', expiresInDays: 30 })).token;
  const call = apiClient(lanyard);
  const adaToken = await bearer(ada.id);
  const { json: app } = await call(adaToken, 'POST', '/apps', { name: 'Team' });
  t.match(await call(adaToken, 'POST', `/apps/${app.client_id}/team`, { email: bob.email }), { status: 202, json: { link: LINK } });
  const list = await (await bob.browser.get(`${lanyard.url}/developer`)).text();
  t.match(list, `action="/developer/invitations/${app.client_id}/accept"`, 'an Accept button');
  t.match(await call(await bearer(bob.id), 'POST', `/invitations/${app.client_id}/accept`), { status: 200, json: { role: 'member' } }, 'accepted with no link');
});
