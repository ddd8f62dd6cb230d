import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerValue } from './bearer-header.js';

/**
 * Bearer authentication (RFC 6750) for an API whose callers hold personal tokens (/developer/api: a developer's
 * `lyd_…`; /school/api: a member of staff's `lys_…`). The token in the Authorization header becomes who the
 * request acts as; anything else is answered before the route runs (and before its body is read):
 * - no token: 401 with the bare challenge `Bearer realm="…"` and no error code (§3.1);
 * - a token that is malformed, unknown, wrong, expired, revoked, or whose holder may no longer use it: 401
 *   with `error="invalid_token"` (never saying which: that would help someone guessing);
 * - a token in the URL (`?access_token=`, or any query value shaped like one): 400 `invalid_request`. URLs end
 *   up in logs, proxies and browser history, so the query method (§2.3) is not offered at all, and a script
 *   that tries it learns so at once rather than working until its token leaks.
 */
export interface BearerAuthOptions<T> {
  realm: string;
  /** A query name or value shaped like one of this API's tokens (`/lyd_[0-9a-f]{16}_/i`). */
  tokenShape: RegExp;
  /** Log events are `<logPrefix>.token_in_url` and `<logPrefix>.authenticated`. */
  logPrefix: string;
  /** What a request without a token, with a bad token and with a token in its URL is told. */
  messages: { missing: string; invalid: string; inQuery: string };
  /** Paths (route patterns) that need no token (the OpenAPI document); a token in their URL is still refused. */
  publicPaths: ReadonlySet<string>;
  /** Who the token stands for, or undefined; a store failure propagates (503: "try again", not "bad token"). */
  verify(token: string): Promise<T | undefined>;
  /** What the debug line of an authenticated request says of its caller (ids, never the token). */
  logged?(caller: T): Record<string, string>;
}

function challenge(reply: FastifyReply, realm: string, error?: { code: string; description: string }): FastifyReply {
  const params = [`realm="${realm}"`];
  if (error) params.push(`error="${error.code}"`, `error_description="${error.description}"`);
  return reply.header('WWW-Authenticate', `Bearer ${params.join(', ')}`);
}

const send = (reply: FastifyReply, status: number, body: object) => reply.code(status).header('Cache-Control', 'no-store').send(body);

function tokenInQuery(url: string, shape: RegExp): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    if (name.toLowerCase() === 'access_token' || shape.test(value) || shape.test(name)) return true;
  }
  return false;
}

/** The callers of one API: the hook that authenticates them, and who each request acts as. */
export class BearerCallers<T> {
  readonly #byRequest = new WeakMap<FastifyRequest, T>();

  /** Who an authenticated request acts as. */
  of(req: FastifyRequest): T {
    const caller = this.#byRequest.get(req);
    // A route reached without the hook is a programming error, not the caller's: never act as nobody.
    if (caller === undefined) throw new Error(`no authenticated caller on ${req.method} ${req.routeOptions.url ?? req.url}`);
    return caller;
  }

  /** Adds the authentication hook to the API's scope. */
  authenticate(scope: FastifyInstance, o: BearerAuthOptions<T>): void {
    scope.addHook('onRequest', async (req, reply) => {
      if (tokenInQuery(req.url, o.tokenShape)) {
        req.log.warn({ event: `${o.logPrefix}.token_in_url`, path: req.routeOptions.url }, 'API token sent in the URL: refused');
        challenge(reply, o.realm, { code: 'invalid_request', description: 'tokens are accepted only in the Authorization header' });
        return send(reply, 400, {
          error: 'invalid_request',
          error_description: o.messages.inQuery,
          fields: [{ path: '/access_token', message: 'send the token in the Authorization header instead' }],
        });
      }
      if (req.routeOptions.url !== undefined && o.publicPaths.has(req.routeOptions.url)) return;
      const token = bearerValue(req.headers.authorization);
      // No Bearer credentials at all (none, or another scheme such as Basic): the bare challenge.
      if (token === 'missing') return send(challenge(reply, o.realm), 401, { error: 'unauthenticated', error_description: o.messages.missing });
      const caller = token === 'malformed' ? undefined : await o.verify(token);
      if (caller === undefined) {
        return send(challenge(reply, o.realm, { code: 'invalid_token', description: 'the token is not valid' }), 401, {
          error: 'invalid_token', error_description: o.messages.invalid,
        });
      }
      this.#byRequest.set(req, caller);
      req.log.debug({ event: `${o.logPrefix}.authenticated`, ...o.logged?.(caller) }, 'API request authenticated');
    });
  }
}
