import type { FastifyInstance } from 'fastify';
import type { DeveloperDeps } from '../deps.js';
import { credentialsRoutes } from './app-credentials-routes.js';
import { lifecycleRoutes } from './app-lifecycle-routes.js';
import { listRoutes } from './app-list-routes.js';
import { overviewRoutes } from './app-overview-routes.js';
import { appRouting } from './app-routing.js';
import { schoolsRoutes } from './app-schools-routes.js';
import { settingsRoutes } from './app-settings-routes.js';
import { teamRoutes } from './app-team-routes.js';

/** The app pages, a module a section (as ../api/ is): list and register, overview, credentials, settings, team, schools, lifecycle. */
export function appPages(scope: FastifyInstance, deps: DeveloperDeps): void {
  const r = appRouting(scope, deps);
  listRoutes(r);
  overviewRoutes(r);
  credentialsRoutes(r);
  settingsRoutes(r);
  teamRoutes(r);
  schoolsRoutes(r);
  lifecycleRoutes(r);
}
