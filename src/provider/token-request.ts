import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { ClientRegistry } from '../clients/client-registry.js';
import { noteRequestEvent } from '../http/request-log.js';
import { handOverBody } from './internals.js';
import { ROUTES } from '../routes.js';
import type { ProviderContext, ProviderMiddleware } from './types.js';
import { unusableClientAnswer } from './unusable-client.js';

/** Same limit as oidc-provider's own body parser. */
const BODY_LIMIT = 56 * 1024;
const CLIENT_AUTHENTICATED = [ROUTES.token, ROUTES.revocation] as string[];

const FORM = 'application/x-www-form-urlencoded';

function reject(ctx: ProviderContext, status: number, error: string, description: string) {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  // RFC 7235 §3.1: a 401 names the scheme to use. The realm is the issuer, as on oidc-provider's own 401s
  // (Koa's ctx.origin is the request's Origin header: the caller's text, never put in a header).
  if (status === 401) ctx.set('WWW-Authenticate', `Basic realm="${(ctx.app as unknown as { issuer: string }).issuer}", error="${error}"`);
  ctx.body = { error, error_description: description };
}

async function readRawBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  // destroyOnReturn: false — stopping at the limit must not destroy the socket before the 413 is sent.
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** RFC 6749 §2.3.1's form-urlencoding undone; undefined where the text is not such an encoding. */
const unform = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s.replace(/\+/g, '%20'));
  } catch {
    return undefined;
  }
};

/**
 * The client_id and the secret readings of an HTTP Basic header. RFC 6749 §2.3.1 has the client
 * form-urlencode both before the Basic encoding, and most OAuth libraries do; SPEC.md shows plain
 * `base64(client_id:client_secret)`, and a client that follows it literally sends a `+` or `%` in its secret
 * as it is. So the secret is tried both ways: decoded, then as sent (`secrets`, distinct, in that order).
 * Client IDs are URL-safe (config/schema.json; the developer area makes them), so decoding cannot change one.
 */
function parseBasic(header: string): { clientId: string; secrets: string[] } | undefined {
  // RFC 9110 §11.4: the scheme, any case, then one or more spaces.
  const m = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i <= 0 || i === decoded.length - 1) return undefined;
  const clientId = unform(decoded.slice(0, i));
  if (clientId === undefined) return undefined;
  const sent = decoded.slice(i + 1);
  const secrets = [...new Set([unform(sent), sent])].filter((s): s is string => s !== undefined);
  return { clientId, secrets };
}

/** Whether any reading of the presented secret is one of the client's. */
async function verifyAny(clients: ClientRegistry, clientId: string, secrets: string[]): Promise<boolean> {
  for (const secret of secrets) if (await clients.verifySecret(clientId, secret)) return true;
  return false;
}

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/**
 * Two differences between SPEC.md and oidc-provider at the token (and revocation) endpoint:
 * 1. SPEC: POST /oauth/token — parameters are "sent as URL parameters". They are merged with any form
 *    body; a parameter given in both places is a duplicate, which oidc-provider rejects. A client secret
 *    in the URL is refused outright (SPEC: Authentication 2 — "never with a secret in the URL").
 * 2. SPEC: Client registration — an application has many secrets, stored hashed. The presented Basic
 *    secret is verified here against every hash; when it matches, it is swapped for the client's
 *    internal secret, which is all oidc-provider knows; otherwise the request ends here with
 *    invalid_client (401), as does a malformed Basic header.
 * Basic is the only client authentication (SPEC: Authentication 2), and oidc-provider, which then does not
 * read client_secret from the body at all, would ignore one sent there beside the header. So: no
 * Authorization header is invalid_client (401, RFC 6749 §5.2 "no client authentication included"), and a
 * body secret beside it is invalid_request (400, RFC 6749 §2.3: one authentication method per request).
 * An authenticated app that oidc-provider cannot load as a client answers unauthorized_client
 * (unusable-client.ts).
 */
export function tokenRequest(clients: ClientRegistry, log: FastifyBaseLogger): ProviderMiddleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !CLIENT_AUTHENTICATED.includes(ctx.path)) return next();
    // RFC 6749 §5.1: a token response has `Cache-Control: no-store` (oidc-provider sends it) and `Pragma: no-cache`.
    ctx.set('Pragma', 'no-cache');

    const query = new URLSearchParams(ctx.querystring);
    if (query.has('client_secret') || query.has('client_assertion')) {
      return reject(ctx, 400, 'invalid_request', 'client credentials must be sent in the Authorization header, never in the URL');
    }
    // One answer for a body over the limit, whether or not it is read here (oidc-provider's parser says 400).
    if (Number(ctx.get('content-length')) > BODY_LIMIT) return reject(ctx, 413, 'invalid_request', 'request body too large');
    const authorization = ctx.get('authorization');

    const type = ctx.get('content-type');
    if ((type && ctx.is(FORM)) || (!type && ctx.querystring)) {
      const body = await readRawBody(ctx.req);
      if (body === undefined) return reject(ctx, 413, 'invalid_request', 'request body too large');
      const form = new URLSearchParams(body);
      if (authorization && (form.has('client_secret') || form.has('client_assertion'))) {
        return reject(ctx, 400, 'invalid_request', 'client authentication must only be provided using one mechanism (HTTP Basic)');
      }
      // oidc-provider reads the body itself: it gets the form with the URL parameters added, unread.
      handOverBody(ctx, [body, ctx.querystring].filter(Boolean).join('&'), FORM);
    }

    if (!authorization) {
      return reject(ctx, 401, 'invalid_client', 'client authentication required: HTTP Basic with client_id:client_secret');
    }
    const credentials = parseBasic(authorization);
    if (!credentials) {
      return reject(ctx, 401, 'invalid_client', 'the Authorization header must be HTTP Basic with client_id:client_secret');
    }
    // Refused here, never passed on: oidc-provider would accept the internal secret itself, which must only
    // ever be put in by this shim after a real secret was verified.
    if (!(await verifyAny(clients, credentials.clientId, credentials.secrets))) {
      noteRequestEvent(ctx.res, log, { event: 'token.rejected', clientId: credentials.clientId, error: 'invalid_client', path: ctx.path }, 'client authentication failed');
      return reject(ctx, 401, 'invalid_client', 'client authentication failed');
    }
    ctx.req.headers.authorization = basic(credentials.clientId, clients.internalSecret(credentials.clientId));
    await next();
    unusableClientAnswer(ctx);
  };
}
