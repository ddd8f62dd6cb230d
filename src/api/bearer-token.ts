import type { Store, User } from '../../adapters/store.js';
import { stillValid } from '../accounts/account-status.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { bearerValue } from '../http/bearer-header.js';
import { apiResourceIdentifier } from '../provider/api-resource.js';
import type { ProviderHost } from '../provider/provider-host.js';

/**
 * The access token of a request to /api: read from the Authorization header (RFC 6750 §2.1) and checked as
 * oidc-provider's own userinfo endpoint checks it (lib/actions/userinfo.js, lib/shared/access_token.js),
 * through the provider's public models only. Every check below answers a typed refusal, never an exception:
 * an exception here is a store failure (503), nothing else.
 */

/** A token that passed every check: who it is for, which app holds it, what it may do. */
export interface VerifiedToken {
  ok: true;
  clientId: string;
  accountId: string;
  scopes: ReadonlySet<string>;
  /** The user, as the store has them now (stillValid: not suspended, not signed out since). */
  user: User;
}

/** Why a token is refused: each is `invalid_token` (RFC 6750 §3.1), except `missing`. */
export type RefusalReason =
  /** No Bearer credentials at all: no Authorization header, or another scheme. */
  | 'missing'
  /** `Bearer` without a single b64token after it. */
  | 'malformed'
  /** Not an access token Lanyard has: unknown, expired, revoked (also a refresh token or an ID token). */
  | 'unknown'
  /** Bound to a DPoP key or a client certificate: the proof is not checked here, so it is refused. */
  | 'sender_constrained'
  /** Issued to an app for itself, not for a user. */
  | 'not_user'
  /** For another resource server than Lanyard's. */
  | 'audience'
  /** Its grant is gone (revoked, a refresh token replayed, the user signed out) or is another one's. */
  | 'grant'
  /** The app it was issued to no longer exists. */
  | 'client'
  /** The user is deleted or suspended, or was signed out everywhere after the token was issued. */
  | 'account';

export interface TokenRefusal {
  ok: false;
  reason: RefusalReason;
}

export interface BearerTokenDeps {
  host: ProviderHost;
  store: Pick<Store, 'findUser'>;
  clients: Pick<ClientRegistry, 'get'>;
  issuer: string;
}

const refuse = (reason: RefusalReason): TokenRefusal => ({ ok: false, reason });

/**
 * The checks, in order. oidc-provider's `AccessToken.find` returns only a stored, unexpired access token
 * (within its clock tolerance) of this provider's format; the rest is Lanyard's to check.
 */
export async function verifyAccessToken(deps: BearerTokenDeps, authorization: string | undefined): Promise<VerifiedToken | TokenRefusal> {
  const value = bearerValue(authorization);
  if (value === 'missing' || value === 'malformed') return refuse(value);

  const { provider } = deps.host;
  const token = await provider.AccessToken.find(value);
  // Exists and unexpired (without the library's clock tolerance: an expired token is expired).
  if (!token || token.isExpired) return refuse('unknown');
  // RFC 9449 §7.1 / RFC 8705 §3: a bound token is worthless without its proof; refusing is the safe answer.
  if (token.isSenderConstrained()) return refuse('sender_constrained');
  // A user token: oidc-provider's userinfo loads the account the same way (loadAccessTokenAccount).
  const accountId: unknown = token.accountId;
  if (typeof accountId !== 'string' || accountId === '' || !token.clientId) return refuse('not_user');
  // The audience is Lanyard's: none (a userinfo token, from a grant with openid) or Lanyard's API
  // (src/provider/api-resource.ts). A token for another resource server is not for us (RFC 8707 §2).
  if (token.aud !== undefined && token.aud !== apiResourceIdentifier(deps.issuer)) return refuse('audience');
  // The grant still stands, and is this account's with this app (oidc-provider's loadAccessTokenGrant).
  const grant = await provider.Grant.find(token.grantId);
  if (!grant || grant.clientId !== token.clientId || grant.accountId !== accountId) return refuse('grant');
  // The app still exists (oidc-provider's loadAccessTokenClient).
  if (!(await deps.clients.get(token.clientId))) return refuse('client');
  // The user still counts: not deleted or suspended, not signed out since the token was issued.
  const user = await deps.store.findUser(accountId);
  if (!stillValid(user, token.iat)) return refuse('account');

  return { ok: true, clientId: token.clientId, accountId, scopes: token.scopes, user };
}
