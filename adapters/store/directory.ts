import type { Locale } from '../../src/formats/locales.js';
import { BADGE_REQUIRES_EMOJI_DEFAULT, LOGIN_METHODS_DEFAULT } from '../../src/config/defaults.js';
import type { LoginMethod } from '../../src/config/schema.js';

/** Organisations (schools), their users, and the users' credentials. */

export type { LoginMethod };

/** Which ways of signing in an organisation offers (SPEC: Authentication 1). */
export interface LoginSettings {
  methods: LoginMethod[];
  /** A badge alone is not enough: the pupil also taps their emoji password (two factors). */
  badgeRequiresEmoji: boolean;
  /** The language of the school's sign-in screens and dashboard (organisations[].language); the browser's when unset. */
  language?: Locale | undefined;
  /** Class sign-in's name tiles show a surname initial after the first name (organisations[].class_sign_in.surname_initial). */
  tilesShowSurnameInitial?: boolean | undefined;
}

/** An organisation that set none (the file's defaults: src/config/defaults.ts). */
export const DEFAULT_LOGIN_SETTINGS: LoginSettings = { methods: [...LOGIN_METHODS_DEFAULT], badgeRequiresEmoji: BADGE_REQUIRES_EMOJI_DEFAULT };

export interface Organisation {
  id: string;
  slug: string;
  name: string;
  login: LoginSettings;
  /** The school's id in its information system (OneRoster org `sourcedId`), when a roster import made or matched it. */
  sourceId?: string | undefined;
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
  /** The person's stable id in the school's information system (OneRoster `sourcedId`), unique in the organisation. */
  sourceId?: string | undefined;
  /**
   * Set by a roster import: `left` (absent from a bulk file, or `tobedeleted`: deleted after the retention period
   * or by `lanyard roster purge`) or `disabled` (OneRoster `enabledUser` false). No sign-in while set, as a
   * suspension; lifted when the roster lists the person again. rosterHoldSince: when it began (ISO 8601).
   */
  rosterHold?: 'left' | 'disabled' | undefined;
  rosterHoldSince?: string | undefined;
  /** While set (ISO 8601, when it began): no sign-in by any method, no session, no token. Claims unchanged. */
  suspendedAt?: string | undefined;
  /**
   * Sessions signed in, and tokens and codes issued, before this instant no longer count (epoch
   * milliseconds, wall time: see sessionsEndNow). Moved forward by endSessions, a suspension, a credential
   * replaced and a badge voided.
   */
  sessionsValidAfter?: number | undefined;
}

/**
 * The instant a user's sessions end at. Wall time, not the injected clock: it is compared with
 * oidc-provider's own timestamps (a session's `loginTs`, a token's `iat` / `authTime`), which the library
 * takes from Date.now() (lib/helpers/epoch_time.js); a test's ManualClock may be months away from them.
 */
export const sessionsEndNow = (): number => Date.now();

/** A deleted user's id, kept so that it is never given to anyone else (SPEC: `sub` is stable and unique). */
export interface RetiredUserId {
  id: string;
  /** ISO 8601. */
  retiredAt: string;
}

export type CredentialKind = 'password' | 'emoji';

export interface Directory {
  /** Creates or updates by slug; returns the stored organisation (its id never changes). */
  upsertOrganisation(org: Omit<Organisation, 'id' | 'login'> & { id?: string; login?: LoginSettings }): Promise<Organisation>;
  findOrganisation(slugOrId: string): Promise<Organisation | undefined>;
  /** Case-insensitive substring search on name and slug, alphabetical by name (ignoring case), at most `limit`. */
  searchOrganisations(query: string, limit: number): Promise<Organisation[]>;
  /**
   * Creates or updates by (organisation, username); returns the stored user (its id never changes). A new
   * user never gets the id of a deleted one (a given id that was retired is refused, 409). The suspension
   * and sessionsValidAfter are left as they are (they have their own methods).
   */
  upsertUser(user: Omit<User, 'id'> & { id?: string }): Promise<User>;
  findUser(id: string): Promise<User | undefined>;
  findUserByUsername(organisationId: string, username: string): Promise<User | undefined>;
  /** The organisation's users, by username. */
  listUsers(organisationId: string): Promise<User[]>;
  /**
   * Stores a credential hash. Replacing a different hash ends the user's sessions, in the same step (as
   * endSessions): what the old secret protected goes with it. Setting the first one, or the same hash
   * again, ends nothing.
   */
  setCredential(userId: string, kind: CredentialKind, hash: string): Promise<void>;
  getCredential(userId: string, kind: CredentialKind): Promise<string | undefined>;
  /** Which credentials each user of the organisation has, by user id (users without any are left out). */
  credentialKinds(organisationId: string): Promise<Map<string, CredentialKind[]>>;
  /**
   * Signs the user out everywhere: moves sessionsValidAfter to now (sessionsEndNow) and removes every
   * protocol record of the account (oidc.revokeByAccountId). false when there is no such user.
   */
  endSessions(userId: string): Promise<boolean>;
  /**
   * Suspends the user (`suspendedAt`, ISO 8601), which also ends their sessions (as endSessions), or lifts
   * the suspension (undefined; ends nothing). false when there is no such user.
   */
  setSuspended(userId: string, suspendedAt: string | undefined): Promise<boolean>;
  /**
   * Erases the user: the user, their credentials and badges, and every protocol record of the account.
   * Only the id is kept (retiredAt, ISO 8601), so it is never given to another user. false when there is
   * no such user.
   */
  deleteUser(userId: string, retiredAt: string): Promise<boolean>;
  /** Whether the id belonged to a user that was deleted. */
  isRetiredUserId(id: string): Promise<boolean>;
}
