import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonBodies } from '../../http/json-bodies.js';
import { serveOpenApiDocument } from '../../http/openapi.js';
import { strictValidator } from '../../http/strict-validator.js';
import type { SchoolDeps } from '../deps.js';
import { ACTION_SCHEMAS } from './action-schemas.js';
import { APP_SCHEMAS } from './app-schemas.js';
import { appRoutes } from './app-routes.js';
import { auditRoutes } from './audit-routes.js';
import { staffBearerAuth } from './auth.js';
import { CLASS_LINK_SCHEMAS } from './class-link-schemas.js';
import { classLinkRoutes } from './class-link-routes.js';
import { credentialRoutes } from './credential-routes.js';
import { schoolApiErrors, sendNotFound } from './errors.js';
import { helpCodeRoutes } from './help-code-routes.js';
import { openApiOptions } from './openapi.js';
import { peopleRoutes } from './people-routes.js';
import { ROSTER_SCHEMAS } from './roster-schemas.js';
import { rosterRoutes } from './roster-routes.js';
import { schoolRoutes } from './school-routes.js';
import { SHARED_SCHEMAS } from './schemas.js';
import { staffRoutes } from './staff-routes.js';

export const SCHOOL_API_PREFIX = '/school/api';
export const SCHOOL_OPENAPI_PATH = `${SCHOOL_API_PREFIX}/openapi.json`;
/** The JSON bodies (a role to give, an app's settings, a reason, a password of at most 1,024 characters) are small; a roster export sets its own limit. */
const BODY_LIMIT = 8 * 1024;
/** The request bodies' schemas are each route's own: no shared request schemas. */
const REQUEST_SCHEMAS: readonly object[] = [];

/**
 * The JSON API under /school/api (docs/school-console.md → The school API): the console's actions for school
 * information systems and scripts, authenticated by staff API tokens, with its OpenAPI 3.1 document generated
 * from the route schemas as the developer API's is. Everything lives in this encapsulated scope: the document
 * lists only these routes, and the parser, validator, error handler and hooks apply to nothing else.
 */
export async function schoolApi(scope: FastifyInstance, deps: SchoolDeps): Promise<void> {
  // Registered first: it collects the routes added after it, in this scope only.
  await scope.register(swagger, openApiOptions(deps.issuer));
  for (const schema of [...SHARED_SCHEMAS, ...ACTION_SCHEMAS, ...CLASS_LINK_SCHEMAS, ...APP_SCHEMAS, ...ROSTER_SCHEMAS]) scope.addSchema(schema);
  strictValidator(scope, REQUEST_SCHEMAS);
  schoolApiErrors(scope);
  jsonBodies(scope, BODY_LIMIT);
  // Every answer is private (people, their sign-ins): no cache may keep any of it.
  scope.addHook('onSend', async (_req, reply, payload) => {
    reply.header('Cache-Control', 'no-store');
    return payload;
  });

  await scope.register(async (api) => {
    staffBearerAuth(api, deps, new Set([SCHOOL_OPENAPI_PATH]));
    api.setNotFoundHandler((req, reply) => sendNotFound(reply, `${req.method} ${req.url.split('?', 1)[0]}`));
    serveOpenApiDocument(api, scope, 'the schemas the routes validate and answer with');
    schoolRoutes(api, deps);
    auditRoutes(api, deps);
    peopleRoutes(api, deps);
    credentialRoutes(api, deps);
    helpCodeRoutes(api, deps);
    classLinkRoutes(api, deps);
    staffRoutes(api, deps);
    appRoutes(api, deps);
    // The roster's export is the body itself (a zip or a CSV): its parsers only on its own routes.
    await api.register(async (roster) => rosterRoutes(roster, deps));
  }, { prefix: SCHOOL_API_PREFIX });
}
