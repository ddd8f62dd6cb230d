import { DEFAULT_LOGIN_SETTINGS, type LoginSettings, type Organisation, type StoredKey, type User } from '../store.js';

/** Row shapes of adapters/sqlite/schema.ts and their mapping to the Store's types. */

export interface UserRow {
  id: string; organisation_id: string; username: string; given_name: string; family_name: string;
  type: string; email: string | null; google_email: string | null; microsoft_email: string | null;
  roster_id: string | null;
}

export const toUser = (r: UserRow): User => ({
  id: r.id,
  organisationId: r.organisation_id,
  username: r.username,
  givenName: r.given_name,
  familyName: r.family_name,
  type: r.type,
  email: r.email ?? undefined,
  googleEmail: r.google_email ?? undefined,
  microsoftEmail: r.microsoft_email ?? undefined,
  rosterId: r.roster_id ?? undefined,
});

export interface KeyRow {
  kid: string; month: string; not_before: string; not_after: string;
  certificate: string; encrypted_private_key: string; created_at: string; revoked_at: string | null;
}

export const toKey = (r: KeyRow): StoredKey => ({
  kid: r.kid,
  month: r.month,
  notBefore: r.not_before,
  notAfter: r.not_after,
  certificate: r.certificate,
  encryptedPrivateKey: r.encrypted_private_key,
  createdAt: r.created_at,
  ...(r.revoked_at ? { revokedAt: r.revoked_at } : {}),
});

export interface OrganisationRow { id: string; slug: string; name: string; login: string | null }

export const toOrganisation = (r: OrganisationRow): Organisation => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  login: r.login ? (JSON.parse(r.login) as LoginSettings) : DEFAULT_LOGIN_SETTINGS,
});
