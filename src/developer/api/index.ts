import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { ApiTokens } from '../api-tokens.js';
import { AppService } from '../app-service.js';
import type { DeveloperDeps } from '../deps.js';
import { accountRoutes } from './account-routes.js';
import { appRoutes } from './app-routes.js';
import { appSettingsRoutes } from './app-settings-routes.js';
import { bearerAuth } from './auth.js';
import type { ApiContext } from './context.js';
import { apiErrorHandler, sendApiError } from './errors.js';
import { invitationRoutes } from './invitation-routes.js';
import { jsonBodies } from '../../http/json-bodies.js';
import { serveOpenApiDocument } from '../../http/openapi.js';
import { openApiOptions } from './openapi.js';
import { sandboxRoutes } from './sandbox-routes.js';
import { SHARED_SCHEMAS } from './schemas.js';
import { schoolRoutes } from './school-routes.js';
import { secretRoutes } from './secret-routes.js';
import { teamRoutes } from './team-routes.js';
import { tokenRoutes } from './token-routes.js';
import { apiValidator } from './validator.js';

export const API_PREFIX = '/developer/api';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
/** Every request body is a small JSON object; nothing here needs more. */
const BODY_LIMIT = 16 * 1024;

/**
 * The JSON API under /developer/api (docs/developer-area.md): every action of the developer area's pages, for scripts,
 * authenticated by personal API tokens, with its OpenAPI 3.1 document generated from the route schemas.
 * Everything here lives in this encapsulated scope: the document lists only these routes, and the parser,
 * validator, error handler and hooks apply to nothing else (the provider's bodies stay unparsed).
 */
export async function developerApi(scope: FastifyInstance, deps: DeveloperDeps): Promise<void> {
  // Registered first: it collects the routes added after it, in this scope only.
  await scope.register(swagger, openApiOptions(deps.issuer));
  for (const schema of SHARED_SCHEMAS) scope.addSchema(schema);
  apiValidator(scope);
  apiErrorHandler(scope);

  jsonBodies(scope, BODY_LIMIT);
  // Every answer is private (an account, its apps, secrets): no cache may keep any of it (docs/developer-area.md).
  scope.addHook('onSend', async (_req, reply, payload) => {
    reply.header('Cache-Control', 'no-store');
    return payload;
  });

  const context: ApiContext = { deps, apps: new AppService(deps), tokens: new ApiTokens(deps) };
  await scope.register(async (api) => {
    bearerAuth(api, context.tokens, new Set([OPENAPI_PATH]));
    api.setNotFoundHandler((req, reply) =>
      sendApiError(reply, 404, { error: 'not_found', error_description: `no such endpoint: ${req.method} ${req.url.split('?', 1)[0]}` }));

    serveOpenApiDocument(api, scope, 'the schemas the routes validate with');

    accountRoutes(api);
    tokenRoutes(api, context);
    appRoutes(api, context);
    appSettingsRoutes(api, context);
    secretRoutes(api, context);
    teamRoutes(api, context);
    invitationRoutes(api, context);
    sandboxRoutes(api, context);
    schoolRoutes(api, context);
  }, { prefix: API_PREFIX });
}
