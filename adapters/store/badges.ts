/** Magic badges: kept only as the SHA-256 of their code (128-bit secrets: it is the lookup key). */

export interface BadgeHolder {
  userId: string;
  organisationId: string;
}

export interface Badges {
  /**
   * Stores a badge (by the hash of its code) for the user, voiding any badge the user had before, atomically.
   * Voiding one ends the user's sessions (Directory.endSessions); a first badge ends nothing.
   */
  issueBadge(userId: string, organisationId: string, codeHash: string): Promise<void>;
  /** The holder of an active badge. */
  findBadge(codeHash: string): Promise<BadgeHolder | undefined>;
  /** Voids badges: one user's, or a whole organisation's, ending the sessions of each holder. Returns how many. */
  revokeBadges(scope: { userId: string } | { organisationId: string }): Promise<number>;
  /** The ids of the organisation's users who hold an active badge. */
  badgeHolders(organisationId: string): Promise<Set<string>>;
}
