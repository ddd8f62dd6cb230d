import { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Store } from '../../adapters/store.js';
import { oidcAdapterFactory } from '../../adapters/oidc-adapter.js';
import { issuedAtOf, stillValid } from '../accounts/account-status.js';
import { identityClaimNames, userClaims } from '../accounts/claims.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { CookieSigner } from './cookie-signer.js';
import { authorizationParams } from './authorization-params.js';
import { loadGrantWithoutConsent } from './grant-loader.js';
import { loginPolicy } from './login-policy.js';
import { ROUTES } from '../routes.js';
import { apiResource, apiResourceIdentifier } from './api-resource.js';
import { TTL } from './ttl.js';


export interface ProviderConfigDeps {
  issuer: string;
  store: Store;
  clients: ClientRegistry;
  /** Signs and checks the provider's cookies with the configured cookie keys (cookie-signer.ts). */
  cookieSigner: CookieSigner;
  jwks: NonNullable<Configuration['jwks']>;
  renderError: NonNullable<Configuration['renderError']>;
}

export function providerConfiguration(d: ProviderConfigDeps): Configuration {
  return {
    // Clients come from the store through the adapter's `Client` model, so every instance sees a change at
    // once; none are static (src/clients/client-registry.ts).
    adapter: oidcAdapterFactory(d.store.oidc, (id) => d.clients.providerMetadata(id)),
    clients: [],
    jwks: d.jwks,
    cookies: {
      keys: d.cookieSigner,
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    // Every identity claim belongs to `openid`, the only scope (SPEC: discovery scopes_supported).
    scopes: ['openid'],
    claims: { openid: identityClaimNames(d.issuer) },
    // SPEC: ID token claims are in the ID token itself, not only at userinfo.
    conformIdTokenClaims: false,
    // oidc-provider asks here for a signed-in session (no token), and for a code, refresh token or access
    // token at the token and userinfo endpoints. A suspended or deleted user, or a session or token older than
    // the user's sessionsValidAfter, has no account any more: the refresh and code grants answer
    // invalid_grant, userinfo invalid_token, and login-policy.ts asks for a new sign-in.
    async findAccount(ctx, sub, token) {
      const user = await d.store.findUser(sub);
      if (!stillValid(user, issuedAtOf(token as { authTime?: unknown; iat?: unknown } | undefined, ctx.oidc?.session))) return undefined;
      return { accountId: user.id, claims: () => ({ ...userClaims(user, d.issuer), sub: user.id }) };
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      revocation: {
        enabled: true,
        // RFC 7009 §2.1: a client revokes only tokens issued to it.
        allowedPolicy: async (_ctx, client, token) => {
          if (token.clientId !== client.clientId) throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
          return true;
        },
      },
      rpInitiatedLogout: { enabled: false }, // SPEC: logout is GET /oauth/logout?client_id= (src/provider/logout.ts)
      claimsParameter: { enabled: false },
      introspection: { enabled: false },
      resourceIndicators: apiResource(d.issuer),
      // SPEC: access tokens are bearer tokens (token_type is a constant, Bearer) that open the service's API.
      // oidc-provider 9 switches these two on by default: with DPoP a client sending a proof would get a
      // DPoP-bound token that /api refuses, and pushed authorization requests are no endpoint of SPEC.md's.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      // Lanyard signs ID tokens itself, once, with the header SPEC.md requires (src/keys/signing-key.ts).
      externalSigningSupport: { enabled: true, ack: 'experimental-01' },
    },
    responseTypes: ['code', 'id_token'],
    subjectTypes: ['public'],
    clientAuthMethods: ['client_secret_basic'],
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    // SPEC: redirect_uri is required on every authorization request.
    allowOmittingSingleRegisteredRedirectUri: false,
    ttl: { ...TTL },
    // SPEC: a refresh_token is always in the token response (no offline_access scope needed) …
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // … and tokens outlive the browser session that produced them.
    expiresWithSession: async () => false,
    // Every refresh returns a new refresh token and retires the old one (a replayed one revokes the grant).
    rotateRefreshToken: true,
    routes: {
      authorization: ROUTES.authorization,
      token: ROUTES.token,
      userinfo: ROUTES.userinfo,
      revocation: ROUTES.revocation,
      jwks: ROUTES.jwks,
      end_session: ROUTES.endSession,
    },
    interactions: {
      url: (_ctx, interaction) => `${ROUTES.interaction}/${interaction.uid}`,
      policy: loginPolicy(d.store, d.clients),
    },
    loadExistingGrant: (ctx: KoaContextWithOIDC) => loadGrantWithoutConsent(ctx, apiResourceIdentifier(d.issuer)),
    extraParams: authorizationParams(d.store) as unknown as Configuration['extraParams'],
    renderError: d.renderError,
  };
}
