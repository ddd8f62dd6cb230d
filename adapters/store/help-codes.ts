/**
 * Help codes (docs/school-console.md → Helping a pupil): a one-time code a teacher gives a pupil who forgot
 * their credential. Only its hash is kept, under the pupil; it signs in only that pupil, once, before it expires,
 * and a few wrong tries void it (src/accounts/help-codes.ts holds the rules).
 */
export interface HelpCode {
  userId: string;
  organisationId: string;
  /** HMAC-SHA-256 (hex) of the pupil and code, under a key derived from the key-encryption key (src/accounts/help-codes.ts). */
  codeHash: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: the end of the school day, and at most 8 hours after createdAt. */
  expiresAt: string;
  /** The user id of the member of staff who issued it. */
  issuedBy: string;
  /** Wrong codes tried for this pupil since it was issued. */
  failures: number;
}

/** What trying a code for a pupil came to. */
export type HelpCodeOutcome = 'used' | 'wrong' | 'none';

export interface HelpCodes {
  /** Stores the pupil's help code, replacing any earlier one (a pupil holds at most one). */
  putHelpCode(code: HelpCode): Promise<void>;
  /** The pupil's live code (undefined when none, or expired at `now`, ISO 8601). */
  findHelpCode(userId: string, now: string): Promise<HelpCode | undefined>;
  /**
   * Atomically tries a code for the pupil at `now` (ISO 8601): `used` removes it (it never works again);
   * `wrong` counts a failure, and removes the code when failures reach `maxFailures`; `none` when the pupil has
   * no live code.
   */
  tryHelpCode(userId: string, codeHash: string, now: string, maxFailures: number): Promise<HelpCodeOutcome>;
  /** Removes the pupil's code; false when there was none. */
  deleteHelpCode(userId: string): Promise<boolean>;
  /** The organisation's live codes at `now`, by expiry. */
  listHelpCodes(organisationId: string, now: string): Promise<HelpCode[]>;
}
