import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type Provider from 'oidc-provider';
import { noteRequestEvent, type RequestEvent } from '../http/request-log.js';

type Ctx = { res: ServerResponse; oidc?: { client?: { clientId: string }; params?: Record<string, unknown>; route?: string } };

/**
 * Structured events from the protocol layer. They carry ids (client, account, grant, error code) and never
 * token values, codes or secrets. The everyday ones are the request's own log line (src/http/request-log.ts).
 */
export function logProviderEvents(provider: Provider, log: FastifyBaseLogger): void {
  const clientId = (ctx: Ctx) => ctx.oidc?.client?.clientId;
  const note = (ctx: Ctx, fields: RequestEvent, msg: string) => noteRequestEvent(ctx.res, log, fields, msg);
  provider.on('grant.success', (ctx: Ctx) => {
    note(ctx, { event: 'token.issued', clientId: clientId(ctx), grantType: ctx.oidc?.params?.grant_type }, 'tokens issued');
  });
  provider.on('grant.error', (ctx: Ctx, err: { error?: string; error_description?: string }) => {
    note(ctx, { event: 'token.rejected', clientId: clientId(ctx), error: err.error, description: err.error_description }, 'token request rejected');
  });
  provider.on('authorization.error', (ctx: Ctx, err: { error?: string; error_description?: string }) => {
    note(ctx, { event: 'authorize.error', clientId: clientId(ctx), error: err.error, description: err.error_description }, 'authorization error');
  });
  provider.on('userinfo.error', (ctx: Ctx, err: { error?: string }) => {
    note(ctx, { event: 'userinfo.rejected', clientId: clientId(ctx), error: err.error }, 'userinfo request rejected');
  });
  provider.on('grant.revoked', (ctx: Ctx, grantId: string) => {
    log.warn({ event: 'grant.revoked', clientId: clientId(ctx), grantId }, 'grant revoked');
  });
  provider.on('server_error', (ctx: Ctx, err: Error) => {
    log.error({ event: 'provider.server_error', route: ctx.oidc?.route, err }, 'oidc-provider server error');
  });
}
