import type { FastifyBaseLogger } from 'fastify';
import type Provider from 'oidc-provider';

type Ctx = { oidc?: { client?: { clientId: string }; params?: Record<string, unknown>; route?: string } };

/**
 * Structured events from the protocol layer. They carry ids (client, account, grant, error code) and never
 * token values, codes or secrets.
 */
export function logProviderEvents(provider: Provider, log: FastifyBaseLogger): void {
  const clientId = (ctx: Ctx) => ctx.oidc?.client?.clientId;
  provider.on('grant.success', (ctx: Ctx) => {
    log.info({ event: 'token.issued', clientId: clientId(ctx), grantType: ctx.oidc?.params?.grant_type }, 'tokens issued');
  });
  provider.on('grant.error', (ctx: Ctx, err: { error?: string; error_description?: string }) => {
    log.info({ event: 'token.rejected', clientId: clientId(ctx), error: err.error, description: err.error_description }, 'token request rejected');
  });
  provider.on('authorization.error', (ctx: Ctx, err: { error?: string; error_description?: string }) => {
    log.info({ event: 'authorize.error', clientId: clientId(ctx), error: err.error, description: err.error_description }, 'authorization error');
  });
  provider.on('userinfo.error', (ctx: Ctx, err: { error?: string }) => {
    log.info({ event: 'userinfo.rejected', clientId: clientId(ctx), error: err.error }, 'userinfo request rejected');
  });
  provider.on('grant.revoked', (ctx: Ctx, grantId: string) => {
    log.warn({ event: 'grant.revoked', clientId: clientId(ctx), grantId }, 'grant revoked');
  });
  provider.on('server_error', (ctx: Ctx, err: Error) => {
    log.error({ event: 'provider.server_error', route: ctx.oidc?.route, err }, 'oidc-provider server error');
  });
}
