import { type AppConnection, DEFAULT_LOGIN_SETTINGS, type LoginSettings, type Organisation, type StoredClient, type StoredClientSecret, type StoredKey, type User } from '../store.js';

/** Row shapes of adapters/sqlite/migrations/ and their mapping to the Store's types. */

export interface UserRow {
  id: string; organisation_id: string; username: string; given_name: string; family_name: string;
  type: string; email: string | null; google_email: string | null; microsoft_email: string | null;
  roster_id: string | null; suspended_at: string | null; sessions_valid_after: number | null;
  source_id: string | null; roster_hold: string | null; roster_hold_since: string | null;
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
  // The roster's fields only where set: a user the roster never saw reads as before they existed.
  ...(r.source_id !== null ? { sourceId: r.source_id } : {}),
  ...(r.roster_hold !== null ? { rosterHold: r.roster_hold as NonNullable<User['rosterHold']> } : {}),
  ...(r.roster_hold_since !== null ? { rosterHoldSince: r.roster_hold_since } : {}),
  suspendedAt: r.suspended_at ?? undefined,
  sessionsValidAfter: r.sessions_valid_after ?? undefined,
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

export interface OrganisationRow { id: string; slug: string; name: string; login: string | null; source_id: string | null }

export const toOrganisation = (r: OrganisationRow): Organisation => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  login: r.login ? (JSON.parse(r.login) as LoginSettings) : DEFAULT_LOGIN_SETTINGS,
  ...(r.source_id !== null ? { sourceId: r.source_id } : {}),
});

export interface ClientRow {
  client_id: string; name: string; redirect_uris: string; default_scopes: string; logout_url: string | null;
  response_types: string; source: string; owner_id: string | null; status: string; description: string | null;
  homepage_url: string | null; logo_url: string | null; logo_hash: string | null; review_note: string | null; initiate_login_uri: string | null;
  all_organisations: number; created_at: string; updated_at: string;
}

export const toClient = (r: ClientRow): StoredClient => ({
  clientId: r.client_id,
  name: r.name,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
  defaultScopes: JSON.parse(r.default_scopes) as string[],
  logoutUrl: r.logout_url ?? undefined,
  responseTypes: JSON.parse(r.response_types) as StoredClient['responseTypes'],
  source: r.source as StoredClient['source'],
  ownerId: r.owner_id ?? undefined,
  status: r.status as StoredClient['status'],
  description: r.description ?? undefined,
  homepageUrl: r.homepage_url ?? undefined,
  logoUrl: r.logo_url ?? undefined,
  logoHash: r.logo_hash ?? undefined,
  reviewNote: r.review_note ?? undefined,
  initiateLoginUri: r.initiate_login_uri ?? undefined,
  allOrganisations: r.all_organisations === 1 ? true : undefined,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const clientRow = (c: StoredClient): ClientRow => ({
  client_id: c.clientId, name: c.name, redirect_uris: JSON.stringify(c.redirectUris),
  default_scopes: JSON.stringify(c.defaultScopes), logout_url: c.logoutUrl ?? null,
  response_types: JSON.stringify(c.responseTypes), source: c.source, owner_id: c.ownerId ?? null,
  status: c.status, description: c.description ?? null, homepage_url: c.homepageUrl ?? null, logo_url: c.logoUrl ?? null,
  logo_hash: c.logoHash ?? null, review_note: c.reviewNote ?? null, initiate_login_uri: c.initiateLoginUri ?? null, all_organisations: c.allOrganisations ? 1 : 0,
  created_at: c.createdAt, updated_at: c.updatedAt,
});

/** The columns of a client row, and an upsert setting all of them (`created_at` too when `keepCreated` is false). */
export const CLIENT_COLUMNS = [
  'client_id', 'name', 'redirect_uris', 'default_scopes', 'logout_url', 'response_types', 'source', 'owner_id', 'status',
  'description', 'homepage_url', 'logo_url', 'logo_hash', 'review_note', 'initiate_login_uri', 'all_organisations', 'created_at', 'updated_at',
] as const;

export const clientUpsertSql = (keepCreated: boolean): string => `INSERT INTO clients (${CLIENT_COLUMNS.join(', ')})
  VALUES (${CLIENT_COLUMNS.map((c) => `@${c}`).join(', ')})
  ON CONFLICT (client_id) DO UPDATE SET ${CLIENT_COLUMNS.filter((c) => c !== 'client_id' && !(keepCreated && c === 'created_at'))
    .map((c) => `${c} = excluded.${c}`).join(', ')}`;

export interface SecretRow {
  client_id: string; id: string; hash: string; label: string; hint: string | null; created_at: string;
  last_used_at: string | null; expires_at: string | null;
}

export const toSecret = (r: SecretRow): StoredClientSecret => ({
  id: r.id,
  clientId: r.client_id,
  hash: r.hash,
  label: r.label,
  hint: r.hint ?? undefined,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at ?? undefined,
  expiresAt: r.expires_at ?? undefined,
});

export const secretRow = (s: StoredClientSecret): SecretRow => ({
  client_id: s.clientId, id: s.id, hash: s.hash, label: s.label, hint: s.hint ?? null, created_at: s.createdAt,
  last_used_at: s.lastUsedAt ?? null, expires_at: s.expiresAt ?? null,
});

export interface ConnectionRow {
  organisation_id: string; client_id: string; position: number; user_types: string | null; source: string; created_at: string;
}

export const toConnection = (r: ConnectionRow): AppConnection => ({
  organisationId: r.organisation_id,
  clientId: r.client_id,
  userTypes: r.user_types === null ? undefined : JSON.parse(r.user_types) as string[],
  position: r.position,
  source: r.source as AppConnection['source'],
  createdAt: r.created_at,
});

export const connectionRow = (c: AppConnection): ConnectionRow => ({
  organisation_id: c.organisationId, client_id: c.clientId, position: c.position,
  user_types: c.userTypes === undefined ? null : JSON.stringify(c.userTypes), source: c.source, created_at: c.createdAt,
});

export const CONNECTION_UPSERT_SQL = `INSERT INTO app_connections (organisation_id, client_id, position, user_types, source, created_at)
  VALUES (@organisation_id, @client_id, @position, @user_types, @source, @created_at)
  ON CONFLICT (organisation_id, client_id) DO UPDATE SET position = excluded.position, user_types = excluded.user_types,
  source = excluded.source, created_at = excluded.created_at`;
