import type { FastifyInstance } from 'fastify';
import { errorPage } from '../web/error-page.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { ROUTES } from './paths.js';
import type { ProviderHost } from './provider-host.js';
import { endBrowserSession } from './session.js';

/**
 * SPEC: GET /oauth/logout?client_id= — logs the user out of the service and redirects straight to the
 * application's registered logout_url (no intermediate page). The stored session is destroyed and the
 * session cookie cleared. Unknown client or no logout_url: an error page, never a redirect.
 */
export function logoutRoute(app: FastifyInstance, host: ProviderHost, clients: ClientRegistry): void {
  app.get(ROUTES.logout, async (req, reply) => {
    const ids = ([] as unknown[]).concat((req.query as Record<string, unknown>).client_id ?? []);
    const client = ids.length === 1 && typeof ids[0] === 'string' ? await clients.get(ids[0]) : undefined;
    if (!client?.logoutUrl) {
      const problem = ids.length === 0 ? 'The app did not say who it is (client_id is missing).'
        : ids.length > 1 ? 'The app sent client_id more than once.'
          : client ? 'This app has no sign-out address registered.' : 'This app is not registered with Lanyard.';
      return reply.code(400).type('text/html; charset=utf-8')
        .send(errorPage('Cannot sign you out here', problem, 'invalid_request'));
    }
    const accountId = await endBrowserSession(host, req, reply);
    req.log.info({ event: 'logout', clientId: client.clientId, accountId }, 'signed out');
    return reply.header('Cache-Control', 'no-store').redirect(client.logoutUrl, 303);
  });
}
