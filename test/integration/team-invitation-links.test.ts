import t from 'tap';
import { systemClock } from '../../src/clock.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { writeConfig } from '../helpers/config-file.js';
import { apiClient } from '../helpers/developer-api-client.js';
import { createDeveloper, csrfOf, DEVELOPER_PASSWORD, formCsrf } from '../helpers/developer.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';

/**
 * Team invitations where developers sign themselves up (`developer_signup: "open"`): nobody's address is
 * verified, so an invitation to an address is accepted only through the link its owner was given
 * (src/developer/team-invitation-links.ts). Before, whoever signed up first with an invited colleague's
 * address saw the invitation and could accept it, and then change the app's callback URLs.
 */

const LINK = /https?:\/\/[^"<\s]+\/developer\/team-invitations\/([A-Za-z0-9_-]{43})/;

async function openLanyard(t: Parameters<typeof startLanyard>[0]): Promise<Lanyard> {
  return startLanyard(t, { env: { LANYARD_CONFIG: writeConfig((c) => { c.developer_signup = 'open'; }) } });
}

/** Signs up through the open sign-up form; the browser is then signed in. */
async function signUp(lanyard: Lanyard, email: string, name: string): Promise<HttpBrowser> {
  const b = new HttpBrowser();
  const { csrf } = await formCsrf(b, `${lanyard.url}/developer/sign-up`);
  const res = await b.post(`${lanyard.url}/developer/sign-up`, { csrf, email, displayName: name, password: DEVELOPER_PASSWORD, confirm: DEVELOPER_PASSWORD });
  if (res.status !== 303) throw new Error(`sign-up answered ${res.status}`);
  return b;
}

/** The browser's CSRF token for the developer area. */
const csrfIn = async (lanyard: Lanyard, b: HttpBrowser) => csrfOf(await (await b.get(`${lanyard.url}/developer`)).text());

/** A Lanyard with open sign-up, and Ada, signed in, with an app of hers (Reading Quest). */
async function ownerWithApp(t: Parameters<typeof startLanyard>[0]) {
  const lanyard = await openLanyard(t);
  const ada = await createDeveloper(lanyard, { name: 'Ada' });
  const adaCsrf = await csrfIn(lanyard, ada.browser);
  const reg = await ada.browser.post(`${lanyard.url}/developer/apps/new`, { csrf: adaCsrf, name: 'Reading Quest', description: '', homepage_url: '', logo_url: '' });
  const clientId = /app_[0-9a-f]{32}/.exec(reg.headers.get('location')!)![0];
  return { lanyard, ada, adaCsrf, clientId };
}

t.test('open sign-up: the owner is given a link once; someone who signed up with the invited address cannot accept without it', async (t) => {
  const { lanyard, ada, adaCsrf, clientId } = await ownerWithApp(t);
  const team = `${lanyard.url}/developer/apps/${clientId}/team`;

  // Eve signs up first with Bob's address (open sign-up checks no address), then Ada invites Bob.
  const eve = await signUp(lanyard, 'bob@school.example', 'Bob');
  const invited = await ada.browser.post(team, { csrf: adaCsrf, email: 'bob@school.example' });
  t.equal(invited.status, 303);
  const teamPage = await (await ada.browser.get(team)).text();
  t.match(teamPage, 'Send them the link below', 'the owner is told to send the link');
  const token = LINK.exec(teamPage)?.[1];
  t.ok(token, 'the team page shows the link');
  t.match(teamPage, /Valid until <time/);
  t.notMatch(await (await ada.browser.get(team)).text(), LINK, 'once: reloading the page shows it no more');
  t.notOk(lanyard.logs.some((l) => l.includes(token!)), 'no log line holds the link');

  const eveCsrf = await csrfIn(lanyard, eve);
  const eveList = await (await eve.get(`${lanyard.url}/developer`)).text();
  t.match(eveList, 'open the link the owner sent you', 'the invitation is listed, to accept through the link');
  t.notMatch(eveList, `/developer/invitations/${clientId}/accept`, 'with no Accept button');
  const refused = await eve.post(`${lanyard.url}/developer/invitations/${clientId}/accept`, { csrf: eveCsrf });
  t.equal(refused.status, 403, 'accepting without the link: 403');
  t.match(await refused.text(), 'accepted through the link');
  t.equal((await eve.post(`${lanyard.url}/developer/invitations/${clientId}/accept`, { csrf: eveCsrf, token: 'A'.repeat(43) })).status, 404, 'with a made-up link: 404');
  t.same((await lanyard.store.listTeam(clientId)).map((m) => m.role), ['owner', 'invited'], 'nobody joined');
  t.equal((await eve.post(`${lanyard.url}/developer/apps/${clientId}/callbacks`, { csrf: eveCsrf, redirect_uri: 'https://evil.example/cb' })).status, 404, 'nor can change the app');

  // Someone else holding the link (it leaked) is refused too: it is for the account with the address.
  const mallory = await signUp(lanyard, 'mallory@evil.example', 'Mallory');
  const malloryPage = await mallory.get(`${lanyard.url}/developer/team-invitations/${token}`);
  t.equal(malloryPage.status, 404, 'the link on another account: 404');
  t.notMatch(await malloryPage.text(), 'Reading Quest', 'and it names no app');
  t.equal((await mallory.post(`${lanyard.url}/developer/invitations/${clientId}/accept`, { csrf: await csrfIn(lanyard, mallory), token: token! })).status, 404);

  // The owner withdraws it: the link ends with it.
  t.equal((await ada.browser.post(`${team}/remove`, { csrf: adaCsrf, developer_id: 'address:bob@school.example' })).status, 303);
  t.equal((await eve.get(`${lanyard.url}/developer/team-invitations/${token}`)).status, 404, 'withdrawn: the link shows nothing');
  t.same((await lanyard.store.listTeam(clientId)).map((m) => m.role), ['owner']);
});

t.test('open sign-up: the invited developer opens the link signed out, signs up, is sent back to it, and joins; the link works once', async (t) => {
  const { lanyard, ada, adaCsrf, clientId } = await ownerWithApp(t);
  await ada.browser.post(`${lanyard.url}/developer/apps/${clientId}/team`, { csrf: adaCsrf, email: 'Carol@School.example' });
  const page = await (await ada.browser.get(`${lanyard.url}/developer/apps/${clientId}/team`)).text();
  const link = LINK.exec(page)![0];
  const token = LINK.exec(page)![1]!;

  const carol = new HttpBrowser();
  const signedOut = await carol.get(link);
  t.equal(signedOut.status, 303, 'signed out: to the sign-in');
  const signIn = location(signedOut, lanyard.url);
  t.equal(signIn.pathname, '/developer/sign-in');
  t.equal(signIn.searchParams.get('next'), `/developer/team-invitations/${token}`, 'which comes back to the link');
  t.notOk(lanyard.logs.some((l) => l.includes(token)), 'no log line holds the token, in the path or in next');
  t.ok(lanyard.logs.some((l) => l.includes('/developer/team-invitations/[redacted]')), 'the request is logged, redacted');

  // The sign-in page's "create an account" link, then the sign-up form, carry the way back to the link.
  const signInPage = await (await carol.get(signIn)).text();
  const signUpHref = /href="(\/developer\/sign-up[^"]*)"/.exec(signInPage)?.[1]?.replace(/&amp;/g, '&');
  t.equal(signUpHref, `/developer/sign-up?next=${encodeURIComponent(`/developer/team-invitations/${token}`)}`, 'the sign-in page offers sign-up, with next');
  const signUpPage = await (await carol.get(`${lanyard.url}${signUpHref}`)).text();
  t.match(signUpPage, `<input type="hidden" name="next" value="/developer/team-invitations/${token}">`, 'the sign-up form carries it');
  t.match(signUpPage, `href="/developer/sign-in?next=${encodeURIComponent(`/developer/team-invitations/${token}`)}"`, 'as does its way back to sign-in');
  const made = await carol.post(`${lanyard.url}/developer/sign-up`, {
    csrf: csrfOf(signUpPage), next: `/developer/team-invitations/${token}`,
    email: 'carol@school.example', displayName: 'Carol', password: DEVELOPER_PASSWORD, confirm: DEVELOPER_PASSWORD,
  });
  t.equal(made.status, 303, 'signed up');
  t.equal(location(made, lanyard.url).href, link, 'and sent straight back to the link');
  const signedUp = carol;
  const join = await signedUp.get(link);
  t.equal(join.status, 200);
  const joinPage = await join.text();
  t.match(joinPage, '<h1>Join the team of “Reading Quest”?</h1>');
  t.match(joinPage, 'Invited by Ada');
  t.equal(join.headers.get('cache-control'), 'no-store');
  const accepted = await signedUp.post(`${lanyard.url}/developer/invitations/${clientId}/accept`, { csrf: csrfOf(joinPage), token });
  t.equal(accepted.status, 303);
  t.equal(location(accepted, lanyard.url).pathname, `/developer/apps/${clientId}`, 'straight to the app');
  const carolId = (await lanyard.store.findDeveloperByEmail('carol@school.example'))!.id;
  t.same((await lanyard.store.listTeam(clientId)).map((m) => [m.developerId, m.role]).slice(1), [[carolId, 'member']], 'a member');
  t.equal((await signedUp.get(link)).status, 404, 'the link works once');
  t.match((await (await ada.browser.get(`${lanyard.url}/developer/apps/${clientId}/history`)).text()), 'Accepted the invitation to the team');
});

t.test('open sign-up, the API: adding someone answers the link; accepting needs its token', async (t) => {
  const lanyard = await openLanyard(t);
  const tokens = new ApiTokens({ store: lanyard.store, clock: systemClock, log: lanyard.app.log });
  const ada = await createDeveloper(lanyard, { name: 'Ada' });
  await signUp(lanyard, 'bob@school.example', 'Bob');
  const bob = { id: (await lanyard.store.findDeveloperByEmail('bob@school.example'))!.id, email: 'bob@school.example' };
  const bearer = async (id: string) => (await tokens.create((await lanyard.store.findDeveloper(id))!, { label: 'script', expiresInDays: 30 })).token;
  const [adaToken, bobToken] = [await bearer(ada.id), await bearer(bob.id)];
  const call = apiClient(lanyard);

  const { json: app } = await call(adaToken, 'POST', '/apps', { name: 'Team' });
  const added = await call(adaToken, 'POST', `/apps/${app.client_id}/team`, { email: bob.email });
  t.equal(added.status, 202);
  t.match(added.json, { email: bob.email, status: 'invitation_recorded', link: LINK, link_expires_at: String });
  t.equal(Date.parse(added.json.link_expires_at) - Date.now() > 6.9 * 24 * 3600 * 1000, true, 'for 7 days');
  const token = LINK.exec(added.json.link)![1]!;
  t.match(await call(bobToken, 'POST', `/invitations/${app.client_id}/accept`), { status: 403, json: { error: 'forbidden' } }, 'no token: 403');
  t.match(await call(bobToken, 'POST', `/invitations/${app.client_id}/accept`, { token: 'A'.repeat(43) }), { status: 404 }, 'another token: 404');
  t.match(await call(bobToken, 'POST', `/invitations/${app.client_id}/accept`, { token: 5 }), { status: 400 }, 'not a string: 400');
  t.match(await call(bobToken, 'POST', `/invitations/${app.client_id}/accept`, { token }), { status: 200, json: { client_id: app.client_id, role: 'member' } }, 'with it: a member');
  t.notOk(lanyard.logs.some((l) => l.includes(token)), 'no log line holds the token');
});

t.test('sign-up goes back only to a page of the developer area', async (t) => {
  const lanyard = await openLanyard(t);
  for (const [i, next] of ['https://evil.example/x', '//evil.example', '/developer/api/apps', '/oauth/authorize'].entries()) {
    const b = new HttpBrowser();
    const page = await (await b.get(`${lanyard.url}/developer/sign-up?next=${encodeURIComponent(next)}`)).text();
    t.notMatch(page, /name="next"/, `${next}: not carried by the form`);
    const made = await b.post(`${lanyard.url}/developer/sign-up`, {
      csrf: csrfOf(page), next, email: `dev${i}@school.example`, displayName: 'Dev', password: DEVELOPER_PASSWORD, confirm: DEVELOPER_PASSWORD,
    });
    t.equal(made.status, 303);
    t.equal(location(made, lanyard.url).pathname, '/developer/account', `${next}: to the account page, as without next`);
  }
});
