import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * No consent screen: clients are registered by ops, so every grant is implicitly approved for what the
 * request asks (oidc-provider's "skip consent" recipe). The grant is found or created and extended with
 * the requested OpenID scopes and claims, and the requested API scopes.
 */
export async function loadGrantWithoutConsent(ctx: KoaContextWithOIDC, apiResource: string) {
  const { oidc } = ctx;
  const clientId = oidc.client!.clientId;
  const accountId = oidc.session!.accountId!;
  const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(clientId);
  let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  if (!grant || grant.accountId !== accountId || grant.clientId !== clientId) {
    grant = new oidc.provider.Grant({ accountId, clientId });
  }
  const scopes = [...oidc.requestParamOIDCScopes].join(' ');
  if (scopes) grant.addOIDCScope(scopes);
  const claims = [...oidc.requestParamClaims];
  if (claims.length) grant.addOIDCClaims(claims);
  // Every other scope is for Lanyard's API (api-resource.ts).
  const apiScopes = [...oidc.requestParamScopes].filter((s) => s !== 'openid').join(' ');
  if (apiScopes) grant.addResourceScope(apiResource, apiScopes);
  await grant.save();
  return grant;
}
