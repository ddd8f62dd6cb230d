import { REALM } from './errors.js';
import { ref } from './schemas.js';

/** The documented answers of the user API's routes: bodies, and the headers every answer or error carries. */

const NO_STORE = { 'Cache-Control': { type: 'string', enum: ['no-store'], description: 'Always `no-store`: every answer is private.' } };
const CHALLENGE = { 'WWW-Authenticate': { type: 'string', description: `The Bearer challenge (RFC 6750 §3), realm "${REALM}".` } };

const ERRORS: Record<number, { description: string; headers?: object }> = {
  400: {
    description: 'invalid_request: the access token was sent in the URL (`?access_token=`) or the request has a body. '
      + 'Tokens are accepted only in the Authorization header; one sent in a URL may have leaked into logs.',
    headers: CHALLENGE,
  },
  401: {
    description: 'No access token (`WWW-Authenticate: Bearer realm="…"`, no error code), or one that is not valid '
      + '(`error="invalid_token"`): malformed, unknown, expired, revoked, for another audience, not issued for a user, '
      + 'or the user was signed out, suspended or deleted since.',
    headers: CHALLENGE,
  },
  403: {
    description: 'insufficient_scope: the access token has neither `openid` nor `user:read` '
      + '(`WWW-Authenticate: Bearer …, error="insufficient_scope", scope="openid user:read"`).',
    headers: CHALLENGE,
  },
  500: { description: 'Lanyard failed; the error is logged.' },
  503: {
    description: 'The store is unavailable: try again after `Retry-After` seconds.',
    headers: { 'Retry-After': { type: 'integer', description: 'Seconds to wait.' } },
  },
};

/** A success response documenting its body and the no-store header. */
export const ok = (description: string, schema: object) => ({ description, headers: NO_STORE, ...schema });

/** The error responses a route can give, each with the Error body. */
export function errorResponses(...statuses: (keyof typeof ERRORS)[]): Record<number, object> {
  const out: Record<number, object> = {};
  for (const status of statuses) {
    const { description, headers } = ERRORS[status]!;
    out[status] = { description, headers: { ...NO_STORE, ...headers }, ...ref('Error') };
  }
  return out;
}
