/**
 * The Authorization header's bearer credentials (RFC 6750 §2.1), as both endpoints that take an access token
 * read them: the user API (src/api/bearer-token.ts) and oidc-provider's userinfo (src/provider/userinfo-request.ts).
 */

/** What a request with no access token at all is told, at /api/user and at userinfo. */
export const MISSING_TOKEN = 'send the access token in the Authorization header: Authorization: Bearer <access_token>';

/** RFC 6750 §2.1: `Bearer` (any case), one or more spaces, one b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The token in an Authorization header; `missing` when there are no Bearer credentials, `malformed` when broken. */
export function bearerValue(header: string | undefined): string | 'missing' | 'malformed' {
  const scheme = header?.trim().split(/\s+/, 1)[0]?.toLowerCase();
  // RFC 6750 §3.1: a request without credentials (or with another scheme, e.g. Basic) gets no error code.
  if (!header || scheme !== 'bearer') return 'missing';
  return BEARER.exec(header)?.[1] ?? 'malformed';
}
