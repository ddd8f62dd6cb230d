import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Store } from '../../adapters/store.js';
import { type BearerTokenDeps, type RefusalReason, verifyAccessToken } from './bearer-token.js';
import { MISSING_TOKEN } from '../http/bearer-header.js';
import { sendApiError, sendInsufficientScope, sendInvalidToken, sendUnauthenticated } from './errors.js';
import { errorResponses, ok } from './responses.js';
import { ref } from './schemas.js';
import { userJson } from './user-view.js';

export interface UserRouteDeps extends BearerTokenDeps {
  store: Pick<Store, 'findUser' | 'findOrganisation'>;
}

/**
 * The scopes that may read the user, any one of them: `openid` (an app that signs users in with an ID token
 * may read the same identity here, as at userinfo) or `user:read` (src/clients/offered-scopes.ts), for an
 * app that asks only for API scopes.
 */
export const USER_READ_SCOPES = ['openid', 'user:read'] as const;

/** One answer for every token Lanyard no longer has or stands by: which of them it was does not help a guesser. */
const GONE = 'the access token is unknown, expired or revoked: refresh it, or sign the user in again';
/** What each refusal says, in printable ASCII without quotes (it is also sent in WWW-Authenticate). */
const INVALID: Record<Exclude<RefusalReason, 'missing'>, string> = {
  malformed: 'the Authorization header is not Bearer followed by one access token',
  unknown: GONE,
  sender_constrained: 'sender-constrained (DPoP or certificate-bound) access tokens are not accepted here',
  not_user: 'the access token was not issued for a user',
  audience: 'the access token is for another resource server, not this API',
  grant: GONE,
  client: 'the app the access token was issued to no longer exists',
  account: 'the access token no longer counts: the user was signed out, suspended or deleted; sign the user in again',
};
const SCOPE = `the access token has none of the scopes this endpoint needs: ${USER_READ_SCOPES.join(' or ')}`;

/** GET /api/user: the signed-in user (docs/integrating-an-app.md → User API), for an access token Lanyard issued for them. */
export function userRoute(api: FastifyInstance, deps: UserRouteDeps): void {
  api.get('/user', {
    schema: {
      tags: ['user'],
      operationId: 'getUser',
      summary: 'The user the access token was issued for',
      description: `Needs an access token with the \`openid\` or the \`user:read\` scope, sent as \`Authorization: Bearer <access_token>\`. `
        + 'Values the user does not have are left out, never null.',
      response: { 200: ok('The user.', ref('User')), ...errorResponses(400, 401, 403, 500, 503) },
    },
  }, async (req, reply) => {
    const verified = await verifyAccessToken(deps, req.headers.authorization);
    if (!verified.ok) {
      req.log.debug({ event: 'api.user.refused', reason: verified.reason }, 'user API: token refused');
      return refuse(reply, verified.reason);
    }
    const { clientId, accountId, user } = verified;
    // RFC 6750 §3.1: a valid token without the scope is 403 insufficient_scope, naming the scopes that would do.
    if (!USER_READ_SCOPES.some((s) => verified.scopes.has(s))) {
      req.log.debug({ event: 'api.user.refused', reason: 'insufficient_scope', clientId, accountId }, 'user API: scope missing');
      return sendInsufficientScope(reply, USER_READ_SCOPES, SCOPE);
    }
    const organisation = await deps.store.findOrganisation(user.organisationId);
    if (!organisation) return refuse(reply, 'account'); // a user without a school cannot sign in either
    req.log.info({ event: 'api.user', clientId, accountId }, 'user read through the API');
    return reply.send(userJson(user, organisation)); // no-store: index.ts, on every answer
  });

  // Only GET (and HEAD) read the user; another method is told so. A body or a token in the URL is refused
  // before this runs (token-placement.ts), so a token in a form body (RFC 6750 §2.2) is 400 there.
  api.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/user',
    schema: { hide: true },
    handler: async (_req, reply) => sendApiError(reply.header('Allow', 'GET, HEAD'), 405, {
      error: 'method_not_allowed', error_description: 'GET /api/user reads the user; no other method is offered',
    }),
  });
}

function refuse(reply: FastifyReply, reason: RefusalReason): FastifyReply {
  return reason === 'missing' ? sendUnauthenticated(reply, MISSING_TOKEN) : sendInvalidToken(reply, INVALID[reason]);
}
