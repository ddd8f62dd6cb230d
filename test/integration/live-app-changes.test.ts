import { join } from 'node:path';
import pino from 'pino';
import t from 'tap';
import type { DeveloperAccount } from '../../adapters/store.js';
import { systemClock } from '../../src/clock.js';
import { actorOf, OPERATOR } from '../../src/developer/actor.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { AppService } from '../../src/developer/app-service.js';
import { lanyard as lanyardCli } from '../helpers/cli.js';
import { apiClient } from '../helpers/developer-api-client.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';

/**
 * docs/developer-area.md → Changes to a live app: a new callback URL, logout_url or initiate_login_uri of a
 * live app waits for an operator's review, who sees its host in ASCII with look-alikes flagged; a live app's
 * team must sign in with a second factor.
 */

const quiet = pino({ level: 'silent' });
const ORIGINAL = 'https://quest.example/cb';
const HOMOGRAPH = 'https://аpple.com/cb'; // a Cyrillic а

async function developer(lanyard: Lanyard, name: string, totp: boolean) {
  const now = new Date().toISOString();
  const account: DeveloperAccount = {
    id: `dev_${name.toLowerCase()}`, email: `${name.toLowerCase()}@example.com`, displayName: name, passwordHash: 'unused', createdAt: now, updatedAt: now,
    // Only whether the account has a second factor matters here; signing in with it is tested in developer-accounts.
    ...(totp ? { totpSecret: 'enrolled' } : {}),
  };
  await lanyard.store.createDeveloper(account);
  const { token } = await new ApiTokens({ store: lanyard.store, clock: systemClock, log: quiet }).create(account, { label: `${name}'s script`, expiresInDays: 30 });
  return { account, token };
}

const authorize = (lanyard: Lanyard, clientId: string, redirectUri: string) => fetch(`${lanyard.url}/oauth/authorize?${new URLSearchParams({
  client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid', state: 's', organisation: 'demo-school',
})}`, { redirect: 'manual' });

t.test('a live app’s new callback URL waits for review: pupils’ codes never go to it until an operator approves', async (t) => {
  const lanyard = await startLanyard(t);
  const store = { LANYARD_STORE: `sqlite:${join(lanyard.dir, 'lanyard.db')}` };
  const call = apiClient(lanyard);
  const ada = await developer(lanyard, 'Ada', true);
  const apps = new AppService({ store: lanyard.store, clock: systemClock, log: quiet });
  const { clientId } = await apps.register(actorOf(ada.account), { name: 'Reading Quest' });
  await apps.addCallback({ ...actorOf(ada.account) }, clientId, ORIGINAL);
  await apps.setLogoutUrl(actorOf(ada.account), clientId, 'https://quest.example/bye');
  await apps.requestLive(actorOf(ada.account), clientId);
  await apps.approve(OPERATOR, clientId);
  const demo = (await lanyard.store.findOrganisation('demo-school'))!;
  await lanyard.store.putConnection({ organisationId: demo.id, clientId, position: 0, source: 'operator', createdAt: new Date().toISOString() });

  const added = await call(ada.token, 'POST', `/apps/${clientId}/redirect_uris`, { redirect_uri: HOMOGRAPH });
  t.equal(added.status, 202, '202 Accepted: waiting for review');
  t.same(added.json.redirect_uris, [ORIGINAL], 'the app as it still is');
  t.match(added.json.pending_changes, [{ setting: 'redirect_uri', url: HOMOGRAPH, proposed_by: { name: 'Ada' } }]);
  const before = await authorize(lanyard, clientId, HOMOGRAPH);
  t.equal(before.status, 400, 'an authorization request for it is refused');
  t.notMatch(before.headers.get('location') ?? '', /xn--pple|аpple/, 'and never sent there');

  const logout = await call(ada.token, 'PUT', `/apps/${clientId}/logout_url`, { logout_url: 'https://evil.example/bye' });
  t.equal(logout.status, 202);
  const signOut = await fetch(`${lanyard.url}/oauth/logout?client_id=${clientId}`, { redirect: 'manual' });
  t.equal(signOut.headers.get('location'), 'https://quest.example/bye', '/oauth/logout still follows the approved logout URL');

  const listed = await lanyardCli(['apps', 'changes'], store);
  t.equal(listed.code, 0, listed.stderr);
  t.match(listed.stdout, /new: {2}https:\/\/xn--pple-43d\.com\/cb {2}\(reads as аpple\.com; WARNING: the host mixes writing systems \(Cyrillic and Latin/, 'the reviewer sees the host in ASCII, flagged');
  t.match(listed.stdout, /now: {2}https:\/\/quest\.example\/cb/);
  const changes = JSON.parse((await lanyardCli(['apps', 'changes', '--json'], store)).stdout) as { change_id: string; setting: string; url_ascii: string; warning: string | null }[];
  t.match(changes, [{ setting: 'redirect_uri', url_ascii: 'https://xn--pple-43d.com/cb', warning: /mixes writing systems/ }, { setting: 'logout_url', warning: null }]);

  const declined = await lanyardCli(['apps', 'decline-change', clientId, '--change', changes[1]!.change_id, '--note', 'Use your own domain'], store);
  t.equal(declined.code, 0, declined.stderr);
  const approved = await lanyardCli(['apps', 'approve-change', clientId, '--change', changes[0]!.change_id], store);
  t.equal(approved.code, 0, approved.stderr);
  t.match(approved.stdout, /takes effect now/);
  const after = await authorize(lanyard, clientId, HOMOGRAPH);
  t.equal(after.status, 303, 'approved: the callback URL works');
  t.match(after.headers.get('location'), /^\/interaction\//);
  const again = await lanyardCli(['apps', 'approve-change', clientId, '--change', changes[0]!.change_id], store);
  t.not(again.code, 0, 'decided once');
  t.match(again.stderr, /No such change is waiting for review/);

  const history = await call(ada.token, 'GET', `/apps/${clientId}/history`);
  t.match(history.json.slice(0, 4).map((e: { action: string }) => e.action), ['change.approved', 'callback.added', 'change.declined', 'change.proposed']);
  t.equal(history.json.find((e: { action: string }) => e.action === 'change.declined').detail.note, 'Use your own domain', 'the team sees why');

  const removed = await call(ada.token, 'DELETE', `/apps/${clientId}/redirect_uris?redirect_uri=${encodeURIComponent(HOMOGRAPH)}`);
  t.equal(removed.status, 200, 'removing a callback URL takes effect at once');
  t.same(removed.json.redirect_uris, [ORIGINAL]);

  const withdrawn = await call(ada.token, 'PUT', `/apps/${clientId}/initiate_login_uri`, { initiate_login_uri: 'https://quest.example/start' });
  const id = withdrawn.json.pending_changes[0].id as string;
  const gone = await call(ada.token, 'DELETE', `/apps/${clientId}/pending_changes/${id}`);
  t.equal(gone.status, 200);
  t.notOk(gone.json.pending_changes, 'withdrawn');
  t.equal((await call(ada.token, 'DELETE', `/apps/${clientId}/pending_changes/${id}`)).status, 404);
});

t.test('a live app’s team must use two-step sign-in; an app in development does not ask', async (t) => {
  const lanyard = await startLanyard(t);
  const call = apiClient(lanyard);
  const carol = await developer(lanyard, 'Carol', false);
  const registered = await call(carol.token, 'POST', '/apps', { name: 'Maths Map' });
  const clientId = registered.json.client_id as string;
  t.equal((await call(carol.token, 'POST', `/apps/${clientId}/redirect_uris`, { redirect_uri: ORIGINAL })).status, 201, 'in development: changed at once');
  await call(carol.token, 'POST', `/apps/${clientId}/go-live`);
  await new AppService({ store: lanyard.store, clock: systemClock, log: quiet }).approve(OPERATOR, clientId);
  for (const [method, path, body] of [['GET', `/apps/${clientId}`], ['POST', `/apps/${clientId}/redirect_uris`, { redirect_uri: 'https://x.example/cb' }], ['POST', `/apps/${clientId}/secrets`, { label: 'x' }]] as const) {
    const res = await call(carol.token, method, path, body);
    t.equal(res.status, 403, `${method} ${path}: 403`);
    t.match(res.json, { error: 'forbidden', error_description: /turn on two-step sign-in/ });
  }
  t.same((await lanyard.store.findClient(clientId))!.redirectUris, [ORIGINAL], 'nothing changed');
  const listed = (await call(carol.token, 'GET', '/apps')).json.find((a: { client_id: string }) => a.client_id === clientId);
  t.same(listed, {
    client_id: clientId, name: 'Maths Map', status: 'live', redirect_uris: [], default_scopes: [], role: 'owner', two_step_required: true,
    created_at: listed.created_at, updated_at: listed.updated_at,
  }, 'the list names the app but withholds its settings');
});
