import type { FastifyInstance } from 'fastify';
import type { StoredClient, User } from '../../adapters/store.js';
import { actor, subject } from '../audit/audit-people.js';
import { ROUTES } from '../routes.js';
import { signedInSession } from '../provider/session.js';
import { errorPage } from '../web/error-page.js';
import { sendHtml, seeOther } from '../web/http.js';
import { translatorFor } from '../web/i18n/choose-locale.js';
import { dashboardCsrfValid } from './dashboard-form.js';
import type { DashboardDeps } from './deps.js';
import { formExpired } from './home-routes.js';
import { dashboardApps } from '../clients/school-apps.js';

/**
 * POST /launch/:clientId — a tile on the dashboard (docs/dashboard-and-app-launch.md). Only a signed-in user, with the
 * dashboard's form token (no other site can make a browser launch an app), and only an app that is on their
 * dashboard. Then, with the app's `initiate_login_uri`, third-party initiated login (OpenID Connect Core
 * §4); without it, the SPEC's provider-initiated flow (OpenID Connect rules 1): an authorization request
 * with no scope, so the app's default scopes apply (src/provider/default-scopes.ts), for its first callback
 * URL, with no state and no nonce. The user is signed in, so the provider answers at once with a code, and
 * the token response has an id_token exactly when `openid` is a default scope. Logged as `app.launched`, and
 * kept in the school's audit trail.
 */
export function launchRoute(app: FastifyInstance, d: DashboardDeps): void {
  app.post<{ Params: { clientId: string }; Body: { csrf?: unknown } }>(`${ROUTES.launch}/:clientId`, async (req, reply) => {
    const signedIn = await signedInSession(d.host, d.store, req, reply);
    if (!signedIn) return seeOther(reply, ROUTES.home);
    if (!dashboardCsrfValid(d.cookieKeys, signedIn, req.body?.csrf)) return formExpired(req, reply);
    const { user } = signedIn;
    const organisation = await d.store.findOrganisation(user.organisationId);
    const client = organisation && (await dashboardApps(d.store, user, organisation)).find((c) => c.clientId === req.params.clientId);
    if (!organisation || !client) {
      const t = translatorFor(req, undefined, organisation?.login.language);
      return sendHtml(reply, 404, errorPage(t.t('dashboard.notYourApp.title'), t.t('dashboard.notYourApp.text'), 'not_found', undefined, undefined, t));
    }
    const to = launchTarget(d.issuer, client, user);
    d.audit.record({ organisationId: organisation.id, kind: 'launch', action: 'launch', ...actor(user), ...subject(user), clientId: client.clientId, source: req.ip });
    req.log.info({
      event: 'app.launched', accountId: user.id, organisation: organisation.slug, clientId: client.clientId,
      via: client.initiateLoginUri ? 'initiate_login_uri' : 'code',
    }, 'app launched from the dashboard');
    return seeOther(reply, to);
  });
}

/** Where a launch sends the browser (both ways above). */
export function launchTarget(issuer: string, client: StoredClient, user: User): string {
  if (client.initiateLoginUri) {
    const url = new URL(client.initiateLoginUri); // its own query, if any, is kept
    url.searchParams.set('iss', issuer);
    // OpenID Connect Core §4: a hint of who signs in; the user's id is the `sub` of the ID token to come.
    url.searchParams.set('login_hint', user.id);
    // Where the app should take the user once signed in: its home page, else its own address.
    url.searchParams.set('target_link_uri', client.homepageUrl ?? `${url.origin}/`);
    return url.href;
  }
  const params = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUris[0]!, response_type: 'code' });
  return `${ROUTES.authorization}?${params}`;
}
