import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { apiErrorHandler } from './errors.js';
import { serveOpenApiDocument } from '../http/openapi.js';
import { openApiOptions } from './openapi.js';
import { API_SCHEMAS } from './schemas.js';
import { refuseTokensOutsideHeader } from './token-placement.js';
import { type UserRouteDeps, userRoute } from './user-route.js';

export const API_PREFIX = '/api';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

export type UserApiDeps = UserRouteDeps;

/**
 * The API apps call with a user's access token (docs/integrating-an-app.md → User API; SPEC: "An access_token is required to access
 * the service's API endpoints"): GET /api/user, and its OpenAPI 3.1 document at /api/openapi.json.
 * Everything lives in one encapsulated scope, a sibling of the developer API's: this document lists only
 * these routes, and the hooks and error handler apply to nothing else. Paths under /api that are not here
 * keep the application's JSON 404.
 */
export async function userApi(app: FastifyInstance, deps: UserApiDeps): Promise<void> {
  await app.register(async (scope) => {
    // Registered first: it collects the routes added after it, in this scope only.
    await scope.register(swagger, openApiOptions(deps.issuer));
    for (const schema of API_SCHEMAS) scope.addSchema(schema);
    apiErrorHandler(scope);
    // RFC 6750 §5.3 / RFC 9111 §5.2.2.5: a user's details and the errors about their token are never cached.
    scope.addHook('onSend', async (_req, reply, payload) => {
      reply.header('Cache-Control', 'no-store');
      return payload;
    });

    await scope.register(async (api) => {
      refuseTokensOutsideHeader(api);
      serveOpenApiDocument(api, scope, 'the schemas the routes answer with');
      userRoute(api, deps);
    }, { prefix: API_PREFIX });
  });
}
