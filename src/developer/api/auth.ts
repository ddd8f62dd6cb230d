import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DeveloperAccount, DeveloperApiToken } from '../../../adapters/store.js';
import type { ApiTokens } from '../api-tokens.js';
import { sendApiError } from './errors.js';

/**
 * Bearer authentication for /developer/api (RFC 6750): a personal API token in the Authorization header
 * becomes the developer the request acts as. Anything else is answered before the route runs (and before
 * its body is read):
 * - no token: 401 with the challenge `Bearer realm="lanyard-developer"` and no error code (§3.1);
 * - a token that is malformed, unknown, wrong, expired, revoked, or whose developer is gone: 401 with
 *   `error="invalid_token"` (never saying which: that would help someone guessing);
 * - a token in the URL (`?access_token=`, or any query value shaped like one): 400 `invalid_request`. URLs end
 *   up in logs, proxies and browser history, so the query method (§2.3) is not offered at all, and a script
 *   that tries it learns so at once rather than working until its token leaks.
 */
export const REALM = 'lanyard-developer';

const TOKEN_SHAPED = /lyd_[0-9a-f]{16}_/i;
/** RFC 6750 §2.1: `Bearer` (any case), then one b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** Who an authenticated request acts as, and the token it came with (set by the hook below). */
const authenticated = new WeakMap<FastifyRequest, { developer: DeveloperAccount; record: DeveloperApiToken }>();

function authOf(req: FastifyRequest) {
  const auth = authenticated.get(req);
  // A route reached without the hook is a programming error, not the caller's: never act as nobody.
  if (!auth) throw new Error(`no authenticated developer on ${req.method} ${req.routeOptions.url ?? req.url}`);
  return auth;
}

/** The developer an authenticated request acts as. */
export const developerOf = (req: FastifyRequest): DeveloperAccount => authOf(req).developer;

/** The token an authenticated request came with. */
export const tokenOf = (req: FastifyRequest): DeveloperApiToken => authOf(req).record;

function tokenInQuery(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const [name, value] of params) {
    if (name.toLowerCase() === 'access_token' || TOKEN_SHAPED.test(value) || TOKEN_SHAPED.test(name)) return true;
  }
  return false;
}

function challenge(reply: FastifyReply, error?: { code: string; description: string }): FastifyReply {
  const params = [`realm="${REALM}"`];
  if (error) params.push(`error="${error.code}"`, `error_description="${error.description}"`);
  return reply.header('WWW-Authenticate', `Bearer ${params.join(', ')}`);
}

const MISSING = 'send a personal API token in the Authorization header: Authorization: Bearer lyd_…';
const INVALID = 'the API token is not valid: it may be mistyped, expired or revoked';
const IN_QUERY = 'API tokens are accepted only in the Authorization header, never in the URL; '
  + 'URLs are logged and kept in histories, so revoke this token and create a new one';

/**
 * Adds the authentication hook to the API scope. `publicPaths` (the OpenAPI document) need no token; a
 * token in their URL is still refused.
 */
export function bearerAuth(scope: FastifyInstance, tokens: ApiTokens, publicPaths: ReadonlySet<string>): void {
  scope.addHook('onRequest', async (req, reply) => {
    if (tokenInQuery(req.url)) {
      req.log.warn({ event: 'developer_api.token_in_url', path: req.routeOptions.url }, 'API token sent in the URL: refused');
      challenge(reply, { code: 'invalid_request', description: 'tokens are accepted only in the Authorization header' });
      return sendApiError(reply, 400, {
        error: 'invalid_request',
        error_description: IN_QUERY,
        fields: [{ path: '/access_token', message: 'send the token in the Authorization header instead' }],
      });
    }
    if (req.routeOptions.url !== undefined && publicPaths.has(req.routeOptions.url)) return;
    const header = req.headers.authorization;
    const scheme = header?.trim().split(/\s+/, 1)[0]?.toLowerCase();
    if (!header || scheme !== 'bearer') {
      // No Bearer credentials at all (none, or another scheme such as Basic): the bare challenge.
      return sendApiError(challenge(reply), 401, { error: 'unauthenticated', error_description: MISSING });
    }
    const token = BEARER.exec(header)?.[1];
    const verified = token ? await tokens.verifyRecord(token) : undefined;
    if (!verified) {
      return sendApiError(challenge(reply, { code: 'invalid_token', description: 'the token is not valid' }), 401, {
        error: 'invalid_token',
        error_description: INVALID,
      });
    }
    authenticated.set(req, verified);
    req.log.debug({ event: 'developer_api.authenticated', developerId: verified.developer.id }, 'API request authenticated');
  });
}
