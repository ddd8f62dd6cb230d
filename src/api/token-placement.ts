import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendInvalidRequest } from './errors.js';

/**
 * Access tokens go in the Authorization header only (RFC 6750 §2.1). The other two ways RFC 6750 describes
 * are refused with 400 invalid_request (§3.1), before anything else is looked at — even when a header is sent
 * too, since the token has leaked already and the app should learn so at once:
 * - §2.3, `?access_token=` in the URL: URLs end up in logs, proxies and browser histories (§5.3);
 * - §2.2, a form body: none of this API's requests has a body, so any body is refused, unread.
 */

/** Whether the query string names `access_token` (any case, as sent or percent-encoded). */
export function tokenInQuery(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  for (const name of new URLSearchParams(url.slice(q + 1)).keys()) {
    if (name.toLowerCase() === 'access_token') return true;
  }
  return false;
}

/** Whether the request carries a body (RFC 9112 §6.3: a Content-Length above 0, or any Transfer-Encoding). */
export function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0');
}

const IN_QUERY = 'access tokens are accepted only in the Authorization header (Authorization: Bearer <access_token>), '
  + 'never in the URL: URLs are logged and kept in histories';
const IN_BODY = 'this API takes no request body: send the access token in the Authorization header '
  + '(Authorization: Bearer <access_token>)';

/** Adds the check to the API's scope, as its first hook: it runs before any body would be read. */
export function refuseTokensOutsideHeader(scope: FastifyInstance): void {
  scope.addHook('onRequest', async (req, reply) => {
    if (tokenInQuery(req.url)) {
      req.log.warn({ event: 'api.token_in_url', path: req.routeOptions.url }, 'access token sent in the URL: refused');
      return sendInvalidRequest(reply, IN_QUERY);
    }
    if (hasBody(req)) return sendInvalidRequest(reply, IN_BODY);
    return undefined;
  });
}
