import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { noteRequestEvent } from '../http/request-log.js';
import { readCookie } from '../http/signed-value.js';
import { hostName } from '../web/components.js';
import { errorPage, schoolApps } from '../web/error-page.js';
import { translatorFor } from '../web/i18n/choose-locale.js';
import { html } from '../web/html.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { LOOPBACK_HOSTS } from '../clients/callback-url.js';
import { type LogoutRequest, resolveLogout } from './logout-request.js';
import { ROUTES } from '../routes.js';
import type { ProviderHost } from './provider-host.js';
import { endBrowserSession } from './session.js';
import { pageErrors, SCHOOL_PAGES } from '../web/page-errors.js';

/** A logout form holds at most an ID token (4096), a state (2048), an address and a client_id. */
const BODY_LIMIT = 16 * 1024;

type Accepted = Extract<LogoutRequest, { ok: true }>;

/**
 * SPEC: GET /oauth/logout?client_id= — logs the user out of the service and redirects straight to the
 * application's registered logout_url (no intermediate page; for an app not yet live, see redirectsAtOnce). The stored session is destroyed and the
 * session cookie cleared. Unknown client or no logout_url: an error page, never a redirect.
 * The same endpoint is discovery's end_session_endpoint: OpenID Connect RP-Initiated Logout 1.0 §2 adds
 * id_token_hint, post_logout_redirect_uri and state (src/provider/logout-request.ts), by GET or by a POSTed
 * form ("The OP MUST support the use of the HTTP GET and POST methods").
 */
export async function logoutRoute(app: FastifyInstance, host: ProviderHost, clients: ClientRegistry, issuer: string): Promise<void> {
  const resolve = (params: unknown) => resolveLogout(params, { clients, issuer, publishedKeys: () => host.keys.published });
  await app.register(async (scope) => {
    // Only a form is read here (RP-Initiated Logout §2: "Form Serialization"); any other body is 415.
    scope.removeAllContentTypeParsers();
    await scope.register(formbody, { bodyLimit: BODY_LIMIT });
    pageErrors(scope, SCHOOL_PAGES);

    scope.get(ROUTES.logout, async (req, reply) => {
      const request = await resolve(req.query);
      if (!request.ok) return refuse(req, reply, request.problem);
      // RFC 9110 §9.3.2: HEAD is safe. A HEAD (a link checker's, a preview's) gets GET's answer without its
      // effect: the session stays, and no cookie is cleared.
      return req.method === 'HEAD' ? answer(req, reply, request) : signOut(host, req, reply, request);
    });

    scope.post(ROUTES.logout, { bodyLimit: BODY_LIMIT }, async (req, reply) => {
      const request = await resolve(req.body);
      if (!request.ok) return refuse(req, reply, request.problem);
      if (carriesSessionCookie(host, req)) return signOut(host, req, reply, request);
      // A form POSTed from the app's site arrives without Lanyard's SameSite=Lax session cookie, so the session
      // cannot be ended here. The browser is sent on to the GET form, a top-level GET navigation that does carry
      // the cookie: by client_id, already checked, so the ID token never goes into a URL.
      return reply.header('Cache-Control', 'no-store').redirect(handOver(issuer, request), 303);
    });
  });
}

async function signOut(host: ProviderHost, req: FastifyRequest, reply: FastifyReply, request: Accepted) {
  const accountId = await endBrowserSession(host, req, reply);
  noteRequestEvent(reply.raw, req.log, {
    event: 'logout',
    clientId: request.client.clientId,
    accountId,
    identifiedBy: request.identifiedBy,
    ...(request.postLogoutRedirectUri ? { postLogoutRedirectUri: request.postLogoutRedirectUri } : {}),
  }, 'signed out');
  return answer(req, reply, request);
}

const MARK = '\u0000host\u0000';

/** Where an accepted logout sends the browser: the app's address, or the signed-out page (redirectsAtOnce), in the request's language. */
function answer(req: FastifyRequest, reply: FastifyReply, request: Accepted) {
  if (!redirectsAtOnce(request)) {
    const t = translatorFor(req, reply);
    // The host name is markup (where a long one may break): put where the message has its argument.
    const [before = '', after = ''] = t.t('errors.signedOut.continue', { host: MARK }).split(MARK);
    return reply.code(200).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(errorPage(t.t('errors.signedOut.title'),
      t.t('errors.signedOut.text', { app: request.client.name }),
      undefined, { href: request.redirectTo, label: html`${before}${hostName(new URL(request.redirectTo).host)}${after}` }, undefined, t));
  }
  return reply.header('Cache-Control', 'no-store').redirect(request.redirectTo, 303);
}

/**
 * A live app's logout_url is redirected to straight away (SPEC). An app still in development (or waiting for
 * review) was registered by any developer and nobody has looked at it, so Lanyard would otherwise send anyone
 * who follows a link to its /oauth/logout on to whatever address the app names (an open redirect under the
 * school's sign-in address): it gets a "You are signed out" page with a link instead, unless its logout_url
 * is on the developer's own machine (loopback).
 */
function redirectsAtOnce(request: Accepted): boolean {
  const { hostname } = new URL(request.redirectTo);
  return request.client.status === 'live' || LOOPBACK_HOSTS.includes(hostname) || hostname.endsWith('.localhost');
}

/** The refusal in a pupil's words, in their language; what was wrong with the request is folded away, in English, for the app's developers. */
function refuse(req: FastifyRequest, reply: FastifyReply, problem: string) {
  const t = translatorFor(req, reply);
  return reply.code(400).type('text/html; charset=utf-8').send(errorPage(t.t('errors.logout.title'), t.t('errors.logout.refused'),
    'invalid_request', schoolApps(t), { summary: t.t('refusal.forAppDevelopers'), text: problem }, t));
}

function carriesSessionCookie(host: ProviderHost, req: FastifyRequest): boolean {
  return readCookie(req.headers.cookie, host.provider.cookieName('session')) !== undefined;
}

/** The SPEC's GET form for an accepted POST: the same app and state, so the same redirect in the end. */
function handOver(issuer: string, request: Accepted): string {
  const url = new URL(issuer + ROUTES.logout);
  url.searchParams.set('client_id', request.client.clientId);
  if (request.state) url.searchParams.set('state', request.state);
  return url.href;
}
