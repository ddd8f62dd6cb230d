import { domainToUnicode } from 'node:url';
/**
 * The developer area's records (SPEC: client registration is "managed in a developer area"): developer
 * accounts (separate from school users), the teams that own apps, personal API tokens, and the history of
 * every change. Sessions and invitations are short-lived records in `oidc` (models `DeveloperSession`,
 * `DeveloperInvitation`): they expire and are swept like every other protocol record.
 */

export interface DeveloperAccount {
  /** `dev_…`; never a school user's id. */
  id: string;
  /** As normaliseEmail makes it; unique. */
  email: string;
  displayName: string;
  /** argon2id (src/accounts/credential-hasher.ts). */
  passwordHash: string;
  /** RFC 6238 second factor: the shared secret encrypted under the key-encryption key; absent when off. */
  totpSecret?: string | undefined;
  /** SHA-256 hashes of the unused recovery codes (each works once). */
  recoveryCodeHashes?: string[] | undefined;
  /** Sessions that began before this instant (ISO 8601) are over: a password change, TOTP change, "sign out everywhere". */
  sessionsValidAfter?: string | undefined;
  /**
   * When the address was shown to be the account holder's (ISO 8601): the account was made through an
   * invitation link, which only the address's owner was given. Absent for open sign-up (nobody checked the
   * address) and for accounts made before this was recorded.
   */
  emailVerifiedAt?: string | undefined;
  createdAt: string;
  updatedAt: string;
}

/**
 * An email address as accounts are keyed by it (trimmed, NFC, lower-cased, the domain in ASCII), so
 * `Ada@Example.org ` and `ada@example.org` are one account. Both stores key by it, and the developer area
 * checks input with the same module (src/formats/email-address.ts).
 */
export { normaliseEmail } from '../../src/formats/email-address.js';

/**
 * The key an account made before addresses were keyed with their domain in ASCII was stored under: the same
 * address with its IDN domain as it reads (`ada@bücher.example`), or undefined when there is no other form.
 * Both stores look an account up by it when the ASCII form finds none, so such accounts stay reachable.
 */
export function earlierEmailKey(normalised: string): string | undefined {
  const at = normalised.lastIndexOf('@');
  if (at < 0 || !/(^|\.)xn--/.test(normalised.slice(at + 1))) return undefined;
  const unicode = domainToUnicode(normalised.slice(at + 1));
  return unicode ? `${normalised.slice(0, at + 1)}${unicode}` : undefined;
}

/**
 * `invited`: an owner added the developer by email and they have not accepted yet. It grants nothing: an
 * address is never verified, so whoever holds the account must say yes before they reach the app.
 */
export type TeamRole = 'owner' | 'member' | 'invited';

/** A developer's place in an app's team. */
export interface TeamMember {
  clientId: string;
  developerId: string;
  role: TeamRole;
  /** When they joined (for `invited`: when they were invited; accepting sets it anew). */
  addedAt: string;
  /** Who added them (a developer id, or `operator`), shown with an invitation; absent for an app's first owner. */
  invitedBy?: string | undefined;
}

/** A personal API token for /developer/api, kept only as a hash. The token is `lyd_<id>_<secret>`. */
export interface DeveloperApiToken {
  id: string;
  developerId: string;
  hash: string;
  label: string;
  /** A short, non-secret reminder (its last characters). */
  hint: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt?: string | undefined;
}

/** One recorded change: who did what to which app or account, and when. Never holds a secret. */
export interface DeveloperEvent {
  /** `app:<client_id>` or `developer:<id>`. */
  subject: string;
  at: string;
  /** A developer id, or `operator` (the CLI). */
  actorId: string;
  /** What the actor was called then (a later rename does not rewrite history). */
  actorName: string;
  /** e.g. `app.registered`, `secret.created`, `callback.added`. */
  action: string;
  /** Non-secret details (a secret's label and hint, a URL, the scopes). */
  detail: Record<string, string | string[]>;
}

export interface Developers {
  /** false when another account has the email (compared lower-cased). */
  createDeveloper(account: DeveloperAccount): Promise<boolean>;
  findDeveloper(id: string): Promise<DeveloperAccount | undefined>;
  findDeveloperByEmail(email: string): Promise<DeveloperAccount | undefined>;
  /** Replaces an existing account (its email may not change here). */
  updateDeveloper(account: DeveloperAccount): Promise<void>;
  /** Every account, by email. */
  listDevelopers(): Promise<DeveloperAccount[]>;

  /** Adds or replaces (by client and developer) a membership. */
  putTeamMember(member: TeamMember): Promise<void>;
  removeTeamMember(clientId: string, developerId: string): Promise<boolean>;
  /** The app's team, oldest member first. */
  listTeam(clientId: string): Promise<TeamMember[]>;
  /** The developer's memberships, oldest first: the apps they may see, and the invitations they have not answered. */
  listMemberships(developerId: string): Promise<TeamMember[]>;
  /** Removes an app's whole team (the app was deleted). */
  deleteTeam(clientId: string): Promise<void>;

  putApiToken(token: DeveloperApiToken): Promise<void>;
  findApiToken(id: string): Promise<DeveloperApiToken | undefined>;
  /** The developer's tokens, oldest first (expired ones too, until deleted). */
  listApiTokens(developerId: string): Promise<DeveloperApiToken[]>;
  deleteApiToken(developerId: string, id: string): Promise<boolean>;
  touchApiToken(id: string, at: string): Promise<void>;

  appendDeveloperEvent(event: DeveloperEvent): Promise<void>;
  /** The subject's events, newest first, at most `limit`. */
  listDeveloperEvents(subject: string, limit: number): Promise<DeveloperEvent[]>;
}
