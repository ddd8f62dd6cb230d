import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { TypedHeaderSigningKey } from '../keys/signing-key.js';

/**
 * The only module that touches oidc-provider internals (DESIGN.md → Rules of thumb). Each patch is a
 * place where SPEC.md asks for something the library has no setting for.
 */

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
