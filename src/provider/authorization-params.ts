import { errors } from 'oidc-provider';
import type { Directory } from '../../adapters/store.js';

/** SPEC: OpenID Connect rules 2 / Limits — nonce is at most 1024 characters. */
export const NONCE_MAX_LENGTH = 1024;

/**
 * Lanyard's limit on `state` (docs/security.md → Rate limits). RFC 6749 sets none; 2048 leaves room
 * for the signed or encoded return addresses apps put there, and keeps what an interaction stores small.
 */
export const STATE_MAX_LENGTH = 2048;

/**
 * The most characters of every parameter oidc-provider keeps in an interaction (its params, plus
 * login_hint, max_age and id_token_hint echoed in the login prompt's details), so one interaction's stored
 * size has a known maximum (MAX_INTERACTION_BYTES). Unlisted parameters are not kept: oidc-provider drops
 * unknown ones, refuses `request`, `request_uri` and `registration`, and the claims parameter is off.
 */
export const PARAM_MAX_LENGTH = {
  client_id: 128, // config/schema.json: client_id is at most 128 characters
  redirect_uri: 2048,
  response_type: 32,
  response_mode: 32,
  scope: 1024,
  state: STATE_MAX_LENGTH,
  nonce: NONCE_MAX_LENGTH,
  code_challenge: 128, // RFC 7636 §4.2: 43–128 characters
  code_challenge_method: 16,
  prompt: 64,
  max_age: 10,
  display: 16,
  login_hint: 254, // an email address (RFC 5321 §4.5.3.1.3); usernames are at most 64
  ui_locales: 128,
  claims_locales: 128,
  acr_values: 256,
  id_token_hint: 4096, // an ID token Lanyard signed: typically about 1.3 KB
  resource: 2048, // RFC 8707; Lanyard has one resource, {issuer}/api
  organisation: 64, // SPEC: slug (at most 64 characters) or encoded ID of the organisation
} as const;

type Capped = keyof typeof PARAM_MAX_LENGTH;

/**
 * Parameters oidc-provider has already held to ASCII without `"` or `\` before these checks run (its
 * pipeline validates them first): a registered client_id and redirect_uri, supported response_type,
 * response_mode, prompt and code_challenge_method values, the PKCE challenge's syntax, scope tokens
 * (RFC 6749 §3.3 NQCHAR), the one resource {issuer}/api and an ID token Lanyard signed. Each of their
 * characters is one byte of the stored JSON; any other character takes at most four (UTF-8; control
 * characters, which JSON escapes in six, are refused).
 */
const ASCII_CHECKED = new Set<Capped>([
  'client_id', 'redirect_uri', 'response_type', 'response_mode', 'scope', 'code_challenge',
  'code_challenge_method', 'prompt', 'id_token_hint', 'resource',
]);

/** Echoed in the login prompt's details as well as kept in params (oidc-provider's login prompt). */
const ECHOED: readonly Capped[] = ['login_hint', 'max_age', 'id_token_hint'];

/**
 * What an interaction holds besides its parameters: uid, iat/exp, returnTo ({issuer}/oauth/authorize/uid),
 * the prompt's name and reasons, cid and jti, and for a signed-in user the session and grant references.
 * Measured at about 600 bytes; 2 KiB leaves room for an issuer of up to 200 characters.
 */
const INTERACTION_OVERHEAD_BYTES = 2048;

/** JSON bytes of `"name":"value",` with every character of the value at its worst. */
const paramBytes = (name: Capped) => name.length + 6 + (ASCII_CHECKED.has(name) ? 1 : 4) * PARAM_MAX_LENGTH[name];

/**
 * The most bytes one interaction can take in the store (its JSON payload): every parameter at its cap in
 * its widest characters, the echoed ones twice. About 33 KB; a typical interaction is under 1 KiB.
 */
export const MAX_INTERACTION_BYTES = INTERACTION_OVERHEAD_BYTES
  + (Object.keys(PARAM_MAX_LENGTH) as Capped[]).reduce((n, name) => n + paramBytes(name), 0)
  + ECHOED.reduce((n, name) => n + paramBytes(name), 0);

// C0 controls and DEL: never in a legitimate parameter (RFC 6749 Appendix A: state and scope are visible
// ASCII), and JSON would store each as a 6-byte escape.
const CONTROL = /[\u0000-\u001f\u007f]/;

type Validator = (ctx: unknown, value: string | string[] | undefined) => Promise<void>;

/**
 * Characters as a person counts them, and as SPEC's "at most 1024 characters" does: Unicode code points,
 * not JavaScript's UTF-16 units, in which an emoji counts two.
 */
export const characters = (value: string): number => [...value].length;

/** The parameter's size check: `invalid_request` when it is longer than its cap or holds control characters. */
function capped(name: Capped): Validator {
  const max = PARAM_MAX_LENGTH[name];
  return async (_ctx, value) => {
    if (value === undefined) return;
    const values = Array.isArray(value) ? value : [value];
    if (values.reduce((n, v) => n + characters(String(v)), 0) > max) {
      throw new errors.InvalidRequest(`${name} must be at most ${max} characters`);
    }
    if (values.some((v) => CONTROL.test(String(v)))) {
      throw new errors.InvalidRequest(`${name} must not contain control characters`);
    }
  };
}

/**
 * The error's scope is taken away: RFC 6749 §4.1.2.1's error response carries error, error_description and
 * state (and RFC 9207's iss), and oidc-provider puts any scope an error holds into the redirect (`scope=`).
 */
function noScopeError(): Error {
  const error = new errors.InvalidScope('no scope requested and the client has no default scopes', '');
  delete (error as { scope?: string }).scope;
  return error;
}

/**
 * Checks on authorization request parameters, run by oidc-provider (`extraParams`) after the client and
 * redirect_uri are validated, so failures are redirected to the client as `invalid_request` (an oversized
 * redirect_uri never matches a registered one, and is refused on Lanyard's page before these run).
 * Listing a standard parameter here only adds a check: every name is one oidc-provider already accepts.
 */
export function authorizationParams(directory: Directory): Record<string, Validator> {
  const validators: Record<string, Validator> = {};
  for (const name of Object.keys(PARAM_MAX_LENGTH) as Capped[]) validators[name] = capped(name);
  const then = (name: Capped, next: Validator): Validator => async (ctx, value) => {
    await validators[name]!(ctx, value);
    await next(ctx, value);
  };
  return {
    ...validators,
    // SPEC: GET /oauth/authorize — organisation: slug or encoded ID of the organisation.
    organisation: then('organisation', async (_ctx, value) => {
      if (value === undefined) return;
      if (typeof value !== 'string' || !value || !(await directory.findOrganisation(value))) {
        throw new errors.InvalidRequest('organisation is not known');
      }
    }),
    // RFC 6749 §3.3: no scope sent and no default scopes configured → fail with invalid_scope.
    scope: then('scope', async (_ctx, value) => {
      if (!value) throw noScopeError();
    }),
  };
}
