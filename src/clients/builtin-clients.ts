import type { StoredClient } from '../../adapters/store.js';
import { ROUTES } from '../routes.js';

/**
 * Lanyard's own pages that need to know who is signed in (the dashboard, marking a trusted classroom device, the
 * school console) sign in
 * through the provider like any app, with the built-in client `lanyard`: the same screens, the same guessing
 * protection, the same session. It has no secret anyone holds (its codes are never exchanged: the page only
 * needs the session the sign-in leaves behind), and its id is reserved.
 */
export const LANYARD_CLIENT_ID = 'lanyard';

export function builtinClients(issuer: string): StoredClient[] {
  const epoch = new Date(0).toISOString();
  return [{
    clientId: LANYARD_CLIENT_ID,
    name: 'Lanyard',
    // The dashboard (src/dashboard/), the classroom-device page and the school console (src/school/).
    redirectUris: [`${issuer}${ROUTES.signInDone}`, `${issuer}${ROUTES.classroomDevice}`, `${issuer}${ROUTES.schoolSignInDone}`],
    defaultScopes: ['openid'],
    logoutUrl: undefined,
    responseTypes: ['code'],
    source: 'builtin',
    status: 'live',
    createdAt: epoch,
    updatedAt: epoch,
  }];
}
