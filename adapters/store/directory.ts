/** Organisations (schools), their users, and the users' credentials. */

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
