/**
 * Class links (docs/childrens-sign-in.md → Class sign-in): a code, link and QR code a teacher shows or prints
 * (from the school console) that opens their class's name tiles on any device, for a limited time (at most a
 * day), until it expires or is revoked. Only an HMAC of the code is kept (src/accounts/class-links.ts holds the
 * rules); the record names the class, never a pupil.
 */
export interface ClassLink {
  /** Random (hex): the console's handle for it, and what a browser's class-link cookie names. */
  id: string;
  organisationId: string;
  /** The roster class (RosterClass.id) whose tiles it opens. */
  classId: string;
  /** HMAC-SHA-256 (hex) of the code, under a key derived from the key-encryption key. */
  codeHash: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: at most 24 hours after createdAt. */
  expiresAt: string;
  /** The member of staff who made it. */
  createdBy: { id: string; username: string };
  /** ISO 8601, when revoked in the console (it opens nothing from then on, on every instance). */
  revokedAt?: string | undefined;
}

export interface ClassLinks {
  putClassLink(link: ClassLink): Promise<void>;
  /** The link with this code hash, live at `now` (ISO 8601): not expired, not revoked. */
  findLiveClassLink(codeHash: string, now: string): Promise<ClassLink | undefined>;
  /** The link by id (live or not), within its organisation. */
  findClassLink(organisationId: string, id: string): Promise<ClassLink | undefined>;
  /** The class's links live at `now`, newest first. */
  listClassLinks(organisationId: string, classId: string, now: string): Promise<ClassLink[]>;
  /** Revokes one link at `at`; false when there is no such live link. */
  revokeClassLink(organisationId: string, id: string, at: string): Promise<boolean>;
  /** Deletes links that expired (or were revoked) before `before`; returns how many. */
  purgeClassLinksBefore(before: string): Promise<number>;
}

/**
 * How long a link that ended (expired or revoked) stays in the store before the sweep deletes it: a day, so
 * that a teacher's "why did it stop?" can still be answered from the record the morning after.
 */
export const ENDED_CLASS_LINKS_KEPT_MS = 24 * 3_600_000;
