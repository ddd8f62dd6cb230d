import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DeveloperAccount, DeveloperApiToken } from '../../../adapters/store.js';
import { BearerCallers } from '../../http/bearer-auth.js';
import type { ApiTokens } from '../api-tokens.js';

/**
 * Bearer authentication for /developer/api (src/http/bearer-auth.ts): a personal API token (`lyd_…`) in the
 * Authorization header becomes the developer the request acts as.
 */
export const REALM = 'lanyard-developer';

const callers = new BearerCallers<{ developer: DeveloperAccount; record: DeveloperApiToken }>();

/** The developer an authenticated request acts as. */
export const developerOf = (req: FastifyRequest): DeveloperAccount => callers.of(req).developer;

/** The token an authenticated request came with. */
export const tokenOf = (req: FastifyRequest): DeveloperApiToken => callers.of(req).record;

/**
 * Adds the authentication hook to the API scope. `publicPaths` (the OpenAPI document) need no token; a
 * token in their URL is still refused.
 */
export function bearerAuth(scope: FastifyInstance, tokens: ApiTokens, publicPaths: ReadonlySet<string>): void {
  callers.authenticate(scope, {
    realm: REALM,
    tokenShape: /lyd_[0-9a-f]{16}_/i,
    logPrefix: 'developer_api',
    messages: {
      missing: 'send a personal API token in the Authorization header: Authorization: Bearer lyd_…',
      invalid: 'the API token is not valid: it may be mistyped, expired or revoked',
      inQuery: 'API tokens are accepted only in the Authorization header, never in the URL; '
        + 'URLs are logged and kept in histories, so revoke this token and create a new one',
    },
    publicPaths,
    verify: (token) => tokens.verifyRecord(token),
    logged: ({ developer }) => ({ developerId: developer.id }),
  });
}
