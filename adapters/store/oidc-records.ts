/** Protocol records: oidc-provider's models (Session, Interaction, AuthorizationCode, AccessToken, …). */

/** oidc-provider's adapter payload: an opaque JSON object plus a few indexed fields. */
export interface OidcPayload {
  [key: string]: unknown;
  uid?: string;
  userCode?: string;
  grantId?: string;
  consumed?: number;
  /** The user (`sub`) a Session, Interaction, Grant, code or token belongs to: indexed for revokeByAccountId. */
  accountId?: string;
  /** The client a Grant, code or token was issued to: indexed for revokeByClientId. */
  clientId?: string;
}

export interface OidcRecords {
  /** Insert or replace. `expiresIn` (seconds) REPLACES any previous lifetime, it may shrink. */
  upsert(model: string, id: string, payload: OidcPayload, expiresIn: number): Promise<void>;
  /** Expired records are never returned. */
  find(model: string, id: string): Promise<OidcPayload | undefined>;
  findByUid(model: string, uid: string): Promise<OidcPayload | undefined>;
  findByUserCode(model: string, userCode: string): Promise<OidcPayload | undefined>;
  /**
   * Marks the record consumed, atomically and only once: resolves `true` for the one call that consumed it,
   * `false` when it was already consumed (or is gone). The `consumed` field carries the epoch second.
   */
  consume(model: string, id: string): Promise<boolean>;
  destroy(model: string, id: string): Promise<void>;
  /** Removes every record, of any model, issued under the grant. */
  revokeByGrantId(grantId: string): Promise<void>;
  /**
   * Removes every record, of any model, whose payload names the account (`accountId`): its sessions,
   * interactions, grants, codes and tokens. Returns how many it removed.
   */
  revokeByAccountId(accountId: string): Promise<number>;
  /**
   * Removes every record, of any model, whose payload names the client (`clientId`): its grants, codes and
   * tokens (an app was deleted). Returns how many it removed.
   */
  revokeByClientId(clientId: string): Promise<number>;
}
