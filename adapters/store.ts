/**
 * The one storage contract every backend implements (DESIGN.md → Storage).
 * Backends: sqlite.ts (embedded default). Every backend must pass test/contract/store-contract.ts.
 */

/** oidc-provider's adapter payload: an opaque JSON object plus a few indexed fields. */
export interface OidcPayload {
  [key: string]: unknown;
  uid?: string;
  userCode?: string;
  grantId?: string;
  consumed?: number;
}

/** Storage for oidc-provider models (Session, Interaction, AuthorizationCode, AccessToken, RefreshToken, Grant, …). */
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
}

export type LoginMethod = 'emoji' | 'badge' | 'password';

/** Which ways of signing in an organisation offers (SPEC: Authentication 1). */
export interface LoginSettings {
  methods: LoginMethod[];
  /** A badge alone is not enough: the pupil also taps their emoji password (two factors). */
  badgeRequiresEmoji: boolean;
}

export const DEFAULT_LOGIN_SETTINGS: LoginSettings = { methods: ['emoji', 'badge', 'password'], badgeRequiresEmoji: false };

export interface Organisation {
  id: string;
  slug: string;
  name: string;
  login: LoginSettings;
}

export interface User {
  id: string;
  organisationId: string;
  username: string;
  givenName: string;
  familyName: string;
  type: string;
  email?: string | undefined;
  googleEmail?: string | undefined;
  microsoftEmail?: string | undefined;
  rosterId?: string | undefined;
}

export type CredentialKind = 'password' | 'emoji';

/** A login counter (see src/accounts/login-throttle.ts): failures in a window and when the last one was. */
export interface Counter {
  count: number;
  /** Epoch milliseconds of the last hit. */
  lastAt: number;
  /** Epoch milliseconds at which the window ends (and the count starts again). */
  expiresAt: number;
  /** From hitCounter only: when the hit before this one was, in this window (undefined for the first). */
  previousAt?: number | undefined;
}

export interface Directory {
  /** Creates or updates by slug; returns the stored organisation (its id never changes). */
  upsertOrganisation(org: Omit<Organisation, 'id' | 'login'> & { id?: string; login?: LoginSettings }): Promise<Organisation>;
  findOrganisation(slugOrId: string): Promise<Organisation | undefined>;
  /** Case-insensitive substring search on name and slug, alphabetical by name (ignoring case), at most `limit`. */
  searchOrganisations(query: string, limit: number): Promise<Organisation[]>;
  /** Creates or updates by (organisation, username); returns the stored user (its id never changes). */
  upsertUser(user: Omit<User, 'id'> & { id?: string }): Promise<User>;
  findUser(id: string): Promise<User | undefined>;
  findUserByUsername(organisationId: string, username: string): Promise<User | undefined>;
  /** The organisation's users, by username. */
  listUsers(organisationId: string): Promise<User[]>;
  setCredential(userId: string, kind: CredentialKind, hash: string): Promise<void>;
  getCredential(userId: string, kind: CredentialKind): Promise<string | undefined>;
}

/** A signing key as stored: the private key is encrypted (see src/keys/key-crypto.ts). */
export interface StoredKey {
  kid: string;
  /** First instant the key may sign (ISO 8601). */
  notBefore: string;
  /** Certificate expiry (ISO 8601). */
  notAfter: string;
  /** The month this key signs for, `YYYY-MM`; unique. */
  month: string;
  certificate: string;
  encryptedPrivateKey: string;
  createdAt: string;
  /** Set when the key was replaced before its time (`lanyard keys rotate --now`): never published again. */
  revokedAt?: string;
}

export interface KeyRecords {
  /** Every stored key, ordered by month, then creation. */
  listKeys(): Promise<StoredKey[]>;
  /**
   * Atomic create-if-absent: stores `key` unless its month already has an active (unrevoked) key, and
   * returns the month's active key — the given one or the one that was there first.
   */
  insertKeyIfAbsent(key: StoredKey): Promise<StoredKey>;
  /** Atomically revokes the month's active key `kid` and stores `replacement` as the month's active key. */
  replaceKey(kid: string, replacement: StoredKey, revokedAt: string): Promise<void>;
  deleteKey(kid: string): Promise<void>;
}

export interface Badges {
  /** Stores a badge (by the hash of its code) for the user, voiding any badge the user had before, atomically. */
  issueBadge(userId: string, organisationId: string, codeHash: string): Promise<void>;
  /** The holder of an active badge. */
  findBadge(codeHash: string): Promise<{ userId: string; organisationId: string } | undefined>;
  /** Voids badges: one user's, or a whole organisation's. Returns how many. */
  revokeBadges(scope: { userId: string } | { organisationId: string }): Promise<number>;
}

export interface Counters {
  /**
   * Atomically counts one hit on `key`. The window starts at the first hit and lasts `windowSeconds`;
   * after it the count starts again from 1.
   */
  hitCounter(key: string, windowSeconds: number): Promise<Counter>;
  /** The counter within its window, or undefined. */
  peekCounter(key: string): Promise<Counter | undefined>;
  /**
   * Takes one hit back (never below zero), e.g. an attempt counted in advance that was refused or succeeded;
   * `lastAt`, when given, restores the time of the hit before it.
   */
  releaseCounter(key: string, lastAt?: number): Promise<void>;
  clearCounter(key: string): Promise<void>;
}

export interface Settings {
  /** Returns the stored value, or atomically stores and returns `create()`'s result when none exists. */
  getOrCreateSetting(name: string, create: () => string): Promise<string>;
  getSetting(name: string): Promise<string | undefined>;
  /** Stores (or replaces) a value. */
  putSetting(name: string, value: string): Promise<void>;
}

export interface Store extends Directory, KeyRecords, Settings, Badges, Counters {
  readonly oidc: OidcRecords;
  /** Deletes expired oidc records and counters; returns how many. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}
