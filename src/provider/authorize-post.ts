import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { noteRequestEvent } from '../http/request-log.js';
import { ROUTES } from '../routes.js';
import { pageErrors, SCHOOL_PAGES } from '../web/page-errors.js';

/**
 * The largest form accepted: the GET it becomes must still fit in a request's headers (Node allows 16 KiB
 * for the request line and every header together, cookies included).
 */
export const AUTHORIZE_FORM_LIMIT = 8 * 1024;

/**
 * OpenID Connect Core §3.1.2.1: the authorization endpoint MUST support POST, with its parameters
 * form-serialized. oidc-provider takes a POST only with `enableHttpPostMethods`, which requires its session
 * cookie to be SameSite=None; Lanyard's cookies are Lax, so a form POSTed from the app's site arrives without
 * the session: a signed-in pupil would have to sign in again, and `prompt=none` could never succeed.
 * Instead the POST is answered 303 with the GET form of the same request, which the browser follows as a
 * top-level GET navigation, carrying the session cookie. Every parameter is kept, from the URL first, then
 * the form; a parameter sent twice stays twice, and oidc-provider refuses it exactly as it would in one URL.
 * Only a form is read (any other body is 415), at most AUTHORIZE_FORM_LIMIT bytes (413).
 */
export async function authorizePostRoute(app: FastifyInstance, issuer: string): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    await scope.register(formbody, { bodyLimit: AUTHORIZE_FORM_LIMIT });
    pageErrors(scope, SCHOOL_PAGES);
    scope.post(ROUTES.authorization, async (req, reply) => {
      const url = new URL(issuer + ROUTES.authorization);
      url.search = new URL(req.url, 'http://x').search;
      for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, string | string[]>)) {
        for (const one of [value].flat()) url.searchParams.append(name, one);
      }
      noteRequestEvent(reply.raw, req.log, { event: 'authorize.post' }, 'authorization request by POST: sent on as a GET');
      return reply.header('Cache-Control', 'no-store').redirect(url.href, 303);
    });
  });
}
