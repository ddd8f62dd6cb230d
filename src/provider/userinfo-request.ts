import { bearerValue, MISSING_TOKEN } from '../http/bearer-header.js';
import { ROUTES } from '../routes.js';
import type { ProviderMiddleware } from './types.js';

/**
 * RFC 6750 §3.1: a request to the userinfo endpoint with another scheme in its Authorization header (Basic,
 * say) carries no bearer credentials, and gets what a request without the header gets: 401 with the bare
 * `Bearer realm` challenge, no error code. oidc-provider answers it 400 invalid_request instead, so the
 * header is taken away before it reads the request; a token sent in a POST form body (RFC 6750 §2.2) is
 * still read. `/api/user` answers the same way (src/api/bearer-token.ts). A token after more than one space
 * (RFC 9110 §11.4: `1*SP`) is handed on after one, as oidc-provider reads it.
 */
export const userinfoRequest: ProviderMiddleware = async (ctx, next) => {
  if (ctx.path !== ROUTES.userinfo) return next();
  const header = ctx.get('authorization');
  const value = header ? bearerValue(header) : 'missing';
  if (value === 'missing') delete ctx.req.headers.authorization;
  // RFC 9110 §11.4 allows one or more spaces after the scheme; oidc-provider reads exactly one.
  else if (value !== 'malformed') ctx.req.headers.authorization = `Bearer ${value}`;
  await next();
  // No token anywhere (oidc-provider's own words for it): its challenge is already bare, and its body no
  // longer says invalid_token about a token never sent (RFC 6750 §3.1). /api/user's body, word for word.
  const body = ctx.body as { error?: string; error_description?: string } | undefined;
  if (ctx.status === 401 && body?.error === 'invalid_token' && body.error_description === 'no access token provided') {
    ctx.body = { error: 'unauthenticated', error_description: MISSING_TOKEN };
  }
};
