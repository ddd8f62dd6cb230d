import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { classLinkRoutes } from './class-link-routes.js';
import type { DashboardDeps } from './deps.js';
import { homeRoutes } from './home-routes.js';
import { launchRoute } from './launch.js';
import { pagesAtIssuerHost } from '../web/issuer-host.js';
import { logoRoute } from './logo-route.js';
import { pageErrors, SCHOOL_PAGES } from '../web/page-errors.js';

/**
 * The users' side of Lanyard (docs/dashboard-and-app-launch.md): the front door at `/` (school picker, remembered school), the
 * dashboard of apps the school uses (their logos served from Lanyard's own copies), launching them, and signing out. Which apps a school uses is
 * src/clients/school-apps.ts, changed by src/clients/connections-service.ts (operators, school admins) and config-connections.ts (the file).
 */
export async function dashboard(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 4 * 1024 });
    pageErrors(scope, SCHOOL_PAGES);
    pagesAtIssuerHost(scope, deps.issuer);
    homeRoutes(scope, deps);
    classLinkRoutes(scope, deps);
    launchRoute(scope, deps);
    logoRoute(scope, deps);
  });
}
