import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { TTL } from './ttl.js';

/**
 * SPEC: Token response — "Without openid, the response contains only access_token and refresh_token";
 * the access token is for "the service's API endpoints". oidc-provider only grants a request that names a
 * scope it recognises, and its only OpenID scope here is `openid`, so every other scope is a scope of
 * Lanyard's API, a resource server whose identifier is `{issuer}/api`. It is the default resource of
 * every request; with `openid` in the grant the access token stays a userinfo token (oidc-provider's rule).
 * Apps are registered by ops and trusted, so the API recognises whichever scopes they ask for.
 */
export const apiResourceIdentifier = (issuer: string) => `${issuer}/api`;

type Ctx = KoaContextWithOIDC & {
  oidc: { entities: { AuthorizationCode?: { scope?: string }; RefreshToken?: { scope?: string } } };
};

/** The scopes in play for this request: asked for now, or carried by the code or refresh token. */
function scopesInPlay(ctx: Ctx): string[] {
  const { params, entities } = ctx.oidc;
  const scope = (params?.scope as string | undefined)
    ?? entities.AuthorizationCode?.scope ?? entities.RefreshToken?.scope ?? '';
  return scope.split(' ').filter((s) => s && s !== 'openid');
}

export function apiResource(issuer: string) {
  const identifier = apiResourceIdentifier(issuer);
  return {
    enabled: true,
    defaultResource: async () => identifier,
    useGrantedResource: async () => false,
    getResourceServerInfo: async (ctx: KoaContextWithOIDC, resource: string) => {
      if (resource !== identifier) throw new errors.InvalidTarget();
      return {
        scope: scopesInPlay(ctx as Ctx).join(' '),
        audience: identifier,
        accessTokenTTL: TTL.AccessToken,
        accessTokenFormat: 'opaque' as const,
      };
    },
  };
}
