import type { FastifyInstance, FastifyReply } from 'fastify';
import { jsonErrors } from '../http/json-errors.js';

/**
 * How the user API says no (RFC 6750 §3): a JSON body `{ error, error_description }` with the status that
 * fits, and on 401 and 403 the `WWW-Authenticate: Bearer …` challenge. Everything is `Cache-Control: no-store`
 * (index.ts); a store failure is 503 with Retry-After, never 500 (docs/storage.md → When the store fails).
 */

/** The protection space of /api (RFC 6750 §3: `realm`). */
export const REALM = 'lanyard-api';

export interface ApiError {
  error: string;
  error_description: string;
}

/**
 * RFC 6750 §3: error_description is %x20-21 / %x23-5B / %x5D-7E — printable ASCII without `"` and `\`.
 * Descriptions are written that way; this keeps a slip from breaking the header.
 */
const headerSafe = (value: string) => value.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, '?');

/** The `WWW-Authenticate` value: the realm, then the error, its description and the scope needed, when given. */
export function bearerChallenge(error?: ApiError, scope?: string): string {
  const params = [`realm="${REALM}"`];
  if (error) params.push(`error="${error.error}"`, `error_description="${headerSafe(error.error_description)}"`);
  if (scope) params.push(`scope="${scope}"`);
  return `Bearer ${params.join(', ')}`;
}

export function sendApiError(reply: FastifyReply, status: number, body: ApiError): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').send(body);
}

/** RFC 6750 §3.1: no credentials at all — the bare challenge, without an error code. */
export function sendUnauthenticated(reply: FastifyReply, description: string): FastifyReply {
  reply.header('WWW-Authenticate', bearerChallenge());
  return sendApiError(reply, 401, { error: 'unauthenticated', error_description: description });
}

/** RFC 6750 §3.1 invalid_token: malformed, unknown, expired, revoked, or not a token for this API. */
export function sendInvalidToken(reply: FastifyReply, description: string): FastifyReply {
  const body = { error: 'invalid_token', error_description: description };
  reply.header('WWW-Authenticate', bearerChallenge(body));
  return sendApiError(reply, 401, body);
}

/** RFC 6750 §3.1 insufficient_scope: 403, naming the scopes that would do (`scope`, space-separated). */
export function sendInsufficientScope(reply: FastifyReply, scopes: readonly string[], description: string): FastifyReply {
  const body = { error: 'insufficient_scope', error_description: description };
  reply.header('WWW-Authenticate', bearerChallenge(body, scopes.join(' ')));
  return sendApiError(reply, 403, body);
}

/** RFC 6750 §3.1 invalid_request: 400 (with the challenge, so a client learns how to authenticate). */
export function sendInvalidRequest(reply: FastifyReply, description: string): FastifyReply {
  const body = { error: 'invalid_request', error_description: description };
  reply.header('WWW-Authenticate', bearerChallenge(body));
  return sendApiError(reply, 400, body);
}

/** The API scope's error handler: a store failure is 503 with Retry-After; anything else unexpected is logged and 500. */
export const apiErrorHandler = (scope: FastifyInstance): void =>
  jsonErrors(scope, {
    codes: 'oauth', log: { event: 'api.failed', message: 'user API request failed' },
    serverError: 'Lanyard could not finish this request; it has been logged',
  });
