import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LANYARD_CLIENT_ID } from '../clients/builtin-clients.js';
import { SANDBOX_SLUG } from '../config/reserved.js';
import { ROUTES } from '../routes.js';
import { endBrowserSession, signedInSession } from '../provider/session.js';
import { spendOwnCode } from '../provider/own-code.js';
import { errorPage } from '../web/error-page.js';
import { sendHtml, seeOther } from '../web/http.js';
import { translatorFor } from '../web/i18n/choose-locale.js';
import { dashboardCsrf, dashboardCsrfValid } from './dashboard-form.js';
import type { DashboardDeps } from './deps.js';
import { dashboardApps } from '../clients/school-apps.js';
import { findSchools, schoolQuery } from '../accounts/school-search.js';
import { forgetSchool, rememberedSchool, rememberSchool } from '../accounts/school-memory.js';
import { dashboardPage } from './views/dashboard-page.js';
import { homePage } from './views/home-page.js';


type HomeQuery = { q?: string; change?: string; error?: string };

/**
 * The front door (docs/dashboard-and-app-launch.md). `GET /`: signed in, the dashboard; otherwise the school this device
 * remembers (straight to its sign-in screens, which offer another school), or the school picker. Signing in
 * goes through the provider with Lanyard's built-in client, like any app: the same screens, the same
 * guessing protection, the same session the apps' sign-ins then find.
 */
export function homeRoutes(app: FastifyInstance, d: DashboardDeps): void {
  app.get<{ Querystring: HomeQuery }>(ROUTES.home, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const signedIn = await signedInSession(d.host, d.store, req, reply);
    if (signedIn) {
      const organisation = await d.store.findOrganisation(signedIn.user.organisationId);
      if (organisation) {
        const apps = await dashboardApps(d.store, signedIn.user, organisation);
        return sendHtml(reply, 200, dashboardPage({
          user: signedIn.user, organisation, apps, csrf: dashboardCsrf(d.cookieKeys, signedIn),
          t: translatorFor(req, reply, organisation.login.language), url: req.url,
        }));
      }
    }
    const { q, change, error } = req.query;
    if (change) forgetSchool(req, reply);
    // Back from a cancelled sign-in, or asked for another school: the picker, never straight back to the sign-in.
    const remembered = change || error || q !== undefined ? undefined : rememberedSchool(d.cookieKeys, req);
    const school = remembered ? await d.store.findOrganisation(remembered) : undefined;
    if (school && school.slug !== SANDBOX_SLUG) return seeOther(reply, signInUrl(d.issuer));
    const query = schoolQuery(q);
    const results = await findSchools(d.store, query);
    const t = translatorFor(req, reply);
    const notice = error ? t.t('dashboard.home.cancelled') : undefined;
    return sendHtml(reply, 200, homePage({ query, results, notice, t, url: req.url }));
  });

  // A school picked on the home page: remembered on this device, then its sign-in screens.
  app.get<{ Querystring: { org?: string } }>(ROUTES.signIn, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const org = typeof req.query.org === 'string' && req.query.org ? await d.store.findOrganisation(req.query.org) : undefined;
    if (!org || org.slug === SANDBOX_SLUG) return seeOther(reply, ROUTES.home);
    rememberSchool(req, reply, org.id);
    return seeOther(reply, signInUrl(d.issuer));
  });

  // Back from the sign-in screens: only the session matters, so our own code is spent at once, unused.
  app.get<{ Querystring: { code?: string; error?: string } }>(ROUTES.signInDone, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (typeof req.query.code === 'string') await spendOwnCode(d.host, req.query.code, `${d.issuer}${ROUTES.signInDone}`);
    const error = typeof req.query.error === 'string' ? req.query.error.replace(/[^a-z_]/g, '').slice(0, 40) : '';
    return seeOther(reply, error ? `${ROUTES.home}?error=${error}` : ROUTES.home);
  });

  app.post<{ Body: { csrf?: unknown } }>(ROUTES.signOut, async (req, reply) => {
    const signedIn = await signedInSession(d.host, d.store, req, reply);
    if (signedIn && !dashboardCsrfValid(d.cookieKeys, signedIn, req.body?.csrf)) return formExpired(req, reply);
    if (signedIn) {
      await endBrowserSession(d.host, req, reply);
      req.log.info({ event: 'logout', clientId: LANYARD_CLIENT_ID, accountId: signedIn.user.id }, 'signed out of the dashboard');
    }
    return seeOther(reply, ROUTES.home);
  });
}

/** Signing in to the dashboard: an authorization request of the built-in client, the school left to the sign-in screens. */
function signInUrl(issuer: string): string {
  const params = new URLSearchParams({
    client_id: LANYARD_CLIENT_ID,
    response_type: 'code',
    scope: 'openid',
    redirect_uri: `${issuer}${ROUTES.signInDone}`,
    state: randomBytes(12).toString('base64url'),
  });
  return `${ROUTES.authorization}?${params}`;
}

export function formExpired(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const t = translatorFor(req);
  return sendHtml(reply, 403, errorPage(t.t('dashboard.formExpired.title'), t.t('dashboard.formExpired.text'), 'invalid_form', undefined, undefined, t));
}
