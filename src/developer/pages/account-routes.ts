import type { FastifyInstance } from 'fastify';
import type { DeveloperDeps } from '../deps.js';
import { joinRoutes } from './account-join-routes.js';
import { settingsRoutes } from './account-settings-routes.js';
import { signInRoutes } from './account-sign-in-routes.js';
import { tokenRoutes } from './account-token-routes.js';
import { totpRoutes } from './account-totp-routes.js';

/** Sign-in, sign-up, invitations, TOTP, account settings and API tokens (pages). */
export function accountPages(scope: FastifyInstance, deps: DeveloperDeps): void {
  signInRoutes(scope, deps);
  joinRoutes(scope, deps);
  settingsRoutes(scope, deps);
  totpRoutes(scope, deps);
  tokenRoutes(scope, deps);
}
