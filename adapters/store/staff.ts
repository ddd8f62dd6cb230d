/**
 * The school console's staff (docs/school-console.md): who is a school admin or a teacher of which school, the
 * staff's two-step sign-in, and their API tokens for /school/api. A teacher of a school is also anyone the
 * roster enrols as `teacher` in one of its classes (derived, not stored here); a school admin is anyone granted
 * `admin` here, by the roster (its `administrator` role), in the console, or by the operator
 * (`lanyard staff grant`).
 */

export type StaffRole = 'admin' | 'teacher';

/**
 * Who made a grant: a roster import (kept in step with the roster), the configuration file (`staff_roles`, kept
 * in step at every start), a school admin in the console, or the operator.
 */
export type StaffGrantSource = 'roster' | 'config' | 'console' | 'operator';

export interface StaffGrant {
  organisationId: string;
  userId: string;
  role: StaffRole;
  source: StaffGrantSource;
  /** ISO 8601. */
  grantedAt: string;
  /** The user id of the school admin who granted it (console), absent otherwise. */
  grantedBy?: string | undefined;
}

/** A member of staff's RFC 6238 second factor (src/accounts/totp.ts). */
export interface StaffSecondFactor {
  userId: string;
  /** The shared secret, encrypted under the key-encryption key. */
  totpSecret: string;
  /** SHA-256 hashes (hex) of the unused recovery codes (each works once). */
  recoveryCodeHashes: string[];
  /** ISO 8601: when it was turned on. */
  enabledAt: string;
  /** The last TOTP step accepted (RFC 6238 §5.2: a code is never accepted twice). */
  lastStep?: number | undefined;
}

/** A staff API token for /school/api, kept only as a hash. The token is `lys_<id>_<secret>`. */
export interface StaffApiToken {
  id: string;
  userId: string;
  /** SHA-256 (hex) of the whole token. */
  hash: string;
  label: string;
  /** A short, non-secret reminder (its last characters). */
  hint: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt?: string | undefined;
}

export interface Staff {
  /** Adds or replaces (by organisation, user and role) a grant. */
  putStaffGrant(grant: StaffGrant): Promise<void>;
  /** false when there was none. */
  deleteStaffGrant(organisationId: string, userId: string, role: StaffRole): Promise<boolean>;
  /** The organisation's grants, by user id then role. */
  listStaffGrants(organisationId: string): Promise<StaffGrant[]>;
  /** The user's grants in every organisation, by organisation id then role. */
  userStaffGrants(userId: string): Promise<StaffGrant[]>;

  getStaffSecondFactor(userId: string): Promise<StaffSecondFactor | undefined>;
  /**
   * Stores (or replaces) the user's second factor, except that the last accepted TOTP step is never lowered: the
   * greater of the one put and the one stored stays (a factor read, then put back with new recovery codes while
   * a sign-in advanced the step, must not make that sign-in's code usable again).
   */
  putStaffSecondFactor(factor: StaffSecondFactor): Promise<void>;
  /** false when there was none. */
  deleteStaffSecondFactor(userId: string): Promise<boolean>;
  /**
   * Atomically removes one recovery-code hash from the user's factor: true for the one call that removed it,
   * false when it is not (or no longer) there.
   */
  spendStaffRecoveryCode(userId: string, codeHash: string): Promise<boolean>;
  /**
   * Atomically records `step` as the last accepted TOTP step: true when it is later than the one stored (or
   * none is), false for a step already used or older (replay).
   */
  advanceStaffTotpStep(userId: string, step: number): Promise<boolean>;

  putStaffApiToken(token: StaffApiToken): Promise<void>;
  findStaffApiToken(id: string): Promise<StaffApiToken | undefined>;
  /** The user's tokens, oldest first (expired ones too, until deleted). */
  listStaffApiTokens(userId: string): Promise<StaffApiToken[]>;
  deleteStaffApiToken(userId: string, id: string): Promise<boolean>;
  touchStaffApiToken(id: string, at: string): Promise<void>;
}
