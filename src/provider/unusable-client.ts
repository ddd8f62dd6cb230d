import type { ProviderContext } from './types.js';

/** oidc-provider's answers when a client's stored metadata does not make a valid client (RFC 7591's codes). */
const METADATA_ERRORS = new Set(['invalid_redirect_uri', 'invalid_client_metadata']);

/**
 * An app of the developer area that has secrets but no callback URL yet authenticates at the token and
 * revocation endpoints with a real secret, and oidc-provider, which cannot make a client without a
 * redirect URI, then answers with its client-metadata error (`invalid_redirect_uri`): a registration
 * error (RFC 7591) that RFC 6749 §5.2 and RFC 7009 §2.2.1 do not have. This turns that answer into
 * `unauthorized_client` (400): the client is known and authenticated, but may not use the endpoint yet,
 * and the description says what to do. Called by token-request.ts once oidc-provider has answered.
 */
export function unusableClientAnswer(ctx: ProviderContext): void {
  if (ctx.status !== 400) return;
  const error = (ctx.body as { error?: unknown } | undefined)?.error;
  if (typeof error !== 'string' || !METADATA_ERRORS.has(error)) return;
  ctx.body = {
    error: 'unauthorized_client',
    error_description: 'this app cannot use this endpoint until it has a callback URL: add one in the developer area',
  };
}
