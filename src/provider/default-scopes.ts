import type { ClientRegistry } from '../clients/client-registry.js';
import { ROUTES } from '../routes.js';
import type { ProviderMiddleware } from './types.js';

/**
 * SPEC: OpenID Connect rules 1 — when no scope is sent (provider-initiated flows), the application's
 * default scopes apply, so an app with `openid` as a default scope still receives an id_token.
 * A request that does send a scope is left exactly as sent.
 */
export function defaultScopes(clients: ClientRegistry): ProviderMiddleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === ROUTES.authorization) {
      const params = new URLSearchParams(ctx.querystring);
      const clientIds = params.getAll('client_id');
      const scopes = params.getAll('scope');
      const client = clientIds.length === 1 ? await clients.get(clientIds[0]!) : undefined;
      if (client && (scopes.length === 0 || (scopes.length === 1 && scopes[0] === '')) && client.defaultScopes.length) {
        params.set('scope', client.defaultScopes.join(' '));
        ctx.querystring = params.toString();
      }
    }
    await next();
  };
}
