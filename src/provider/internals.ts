import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { TypedHeaderSigningKey } from '../keys/signing-key.js';
import type { ProviderContext } from './types.js';

/**
 * The only module that touches oidc-provider internals (docs/architecture.md → Library internals). Each patch
 * is a place where SPEC.md asks for something the library has no setting for, or where Lanyard must work
 * around how the library reads a request. A module elsewhere that cannot help depending on how the library
 * works inside says so in its header and is named here, so that an upgrade of oidc-provider knows where to look.
 */
export const LIBRARY_COUPLED_MODULES = [
  /** Signs `<SPEC header>.<payload>` where the library hands it `<its header>.<payload>` (idTokensWithTypHeader below). */
  'src/keys/signing-key.ts',
] as const;

/**
 * SPEC: discovery lists response_type `id_token`, and apps register plain callback URLs (the demo's is
 * http://localhost:8080/callback). oidc-provider refuses http and localhost redirect URIs for clients that
 * may use the implicit flow; this is its documented recipe for allowing them. Production configurations
 * are checked separately (config.ts refuses non-https redirect URIs outside loopback in production).
 */
const RELAXED = new Set(['implicit-force-https', 'implicit-forbid-localhost']);

export function allowPlainRedirectUrisForImplicit(provider: Provider): void {
  const schema = (provider.Client as unknown as { Schema: { prototype: { invalidate(m: string, c?: string): void } } }).Schema;
  const original = schema.prototype.invalidate;
  schema.prototype.invalidate = function invalidate(message: string, code?: string) {
    if (code && RELAXED.has(code)) return;
    original.call(this, message, code);
  };
}

/**
 * SPEC: ID token header — `typ` is `JWT`. oidc-provider leaves `typ` out of ID tokens and has no setting
 * for it. Its signing keys are Lanyard's TypedHeaderSigningKey (src/keys/signing-key.ts), which sign the
 * header with `typ` once; each issued ID token gets that header in place of the library's.
 */
export function idTokensWithTypHeader(provider: Provider, keys: TypedHeaderSigningKey[]): void {
  const proto = (provider.IdToken as unknown as { prototype: { issue(...args: unknown[]): Promise<unknown> } }).prototype;
  const issue = proto.issue;
  proto.issue = async function issueWithTyp(...args: unknown[]) {
    const token = await issue.apply(this, args);
    if (typeof token !== 'string') return token;
    for (const key of keys) {
      const typed = key.withTypedHeader(token);
      if (typed !== token) return typed;
    }
    return token;
  };
}

/**
 * RFC 6749 §4.1.2.1: a client asking for a response_type it has not registered (`id_token` from an app
 * registered for `code` only) is `unauthorized_client`, "not authorized to request an authorization code using
 * this method"; oidc-provider says `invalid_request`. Its one check (checkResponseType, after the client and
 * the redirect_uri are known good) asks Client#responseTypeAllowed: refused there with UnauthorizedClient,
 * the error goes back to the callback with that code. A response_type nobody may use stays
 * `unsupported_response_type` (checked before).
 */
export function unauthorizedClientForUnregisteredResponseTypes(provider: Provider): void {
  const proto = (provider.Client as unknown as { prototype: { responseTypeAllowed(type: string): boolean } }).prototype;
  const allowed = proto.responseTypeAllowed;
  proto.responseTypeAllowed = function responseTypeAllowed(this: unknown, type: string) {
    if (allowed.call(this, type)) return true;
    throw new errors.UnauthorizedClient('requested response_type is not allowed for this client');
  };
}

/**
 * oidc-provider marks its cookies (`_interaction`, `_interaction_resume`, `_session`) Secure when Koa says
 * the request is secure (`ctx.secure`: https to Lanyard itself, or a trusted proxy's X-Forwarded-Proto).
 * With an https issuer the browser always reaches Lanyard by https, so they are Secure whatever the last hop
 * used: a TLS proxy that Lanyard was not told to trust (LANYARD_TRUST_PROXY unset), or one that sends no
 * X-Forwarded-Proto, left them without it. Koa reads `secure` from the app's own request prototype, so this
 * changes nothing else and no other app. Lanyard's own cookies follow the same rule (src/http/cookie-header.ts).
 */
export function secureCookiesForHttpsIssuer(provider: Provider, issuer: string): void {
  if (!issuer.startsWith('https://')) return;
  Object.defineProperty(provider.request, 'secure', { get: () => true, configurable: true });
}

/**
 * oidc-provider parses request bodies itself, from the request stream (lib/shared/selective_body.js). A
 * body already read upstream makes it warn "already parsed request body detected" and fall back to
 * `req.body`. A shim that has to read the body first (token-request.ts: URL parameters, secrets) hands it
 * over with this instead: from here on the request is a copy of the original whose unread stream carries
 * `body`, with Content-Type and Content-Length to match, so the library reads it the way it expects.
 */
export function handOverBody(ctx: ProviderContext, body: string, contentType: string): void {
  const original = ctx.req;
  const bytes = Buffer.from(body, 'utf8');
  // The copy's length is known: a chunked original's Transfer-Encoding no longer applies.
  const { 'transfer-encoding': _chunked, ...kept } = original.headers;
  const headers = { ...kept, 'content-type': contentType, 'content-length': String(bytes.length) };
  const copy = Object.assign(Readable.from([bytes], { objectMode: false }), {
    method: original.method,
    url: original.url,
    headers,
    rawHeaders: Object.entries(headers).flatMap(([name, value]) => [value].flat().flatMap((v) => [name, String(v)])),
    httpVersion: original.httpVersion,
    httpVersionMajor: original.httpVersionMajor,
    httpVersionMinor: original.httpVersionMinor,
    socket: original.socket,
    complete: true,
    trailers: {},
    rawTrailers: [],
    // Set by middie/express-style mounting; oidc-provider reads it to build URLs (oidc_context.js urlFor).
    ...('originalUrl' in original ? { originalUrl: (original as IncomingMessage & { originalUrl?: string }).originalUrl } : {}),
  }) as unknown as IncomingMessage;
  // Koa keeps the request on the context, its request and its response; all three must agree.
  ctx.req = copy;
  ctx.request.req = copy;
  ctx.response.req = copy;
}

/**
 * Whether a session oidc-provider loaded was just made for this request, not read from the store (the
 * library's `session.new`, which its types do not declare): ending a session nobody saved writes nothing.
 */
export const isNewSession = (session: object): boolean => (session as { new?: boolean }).new === true;
