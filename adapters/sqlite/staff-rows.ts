import type { StaffApiToken, StaffGrant, StaffSecondFactor } from '../store.js';

/** Row shapes of the staff tables (migrations/011-school-console.ts) and their mapping to the Store's types. */

export interface StaffGrantRow {
  organisation_id: string; user_id: string; role: string; source: string; granted_at: string; granted_by: string | null;
}

export const toStaffGrant = (r: StaffGrantRow): StaffGrant => ({
  organisationId: r.organisation_id, userId: r.user_id, role: r.role as StaffGrant['role'], source: r.source as StaffGrant['source'],
  grantedAt: r.granted_at, grantedBy: r.granted_by ?? undefined,
});

export const staffGrantRow = (g: StaffGrant): StaffGrantRow => ({
  organisation_id: g.organisationId, user_id: g.userId, role: g.role, source: g.source, granted_at: g.grantedAt,
  granted_by: g.grantedBy ?? null,
});

export interface StaffFactorRow {
  user_id: string; totp_secret: string; recovery_code_hashes: string; enabled_at: string; last_step: number | null;
}

export const toStaffFactor = (r: StaffFactorRow): StaffSecondFactor => ({
  userId: r.user_id, totpSecret: r.totp_secret, recoveryCodeHashes: JSON.parse(r.recovery_code_hashes) as string[],
  enabledAt: r.enabled_at, lastStep: r.last_step ?? undefined,
});

export const staffFactorRow = (f: StaffSecondFactor): StaffFactorRow => ({
  user_id: f.userId, totp_secret: f.totpSecret, recovery_code_hashes: JSON.stringify(f.recoveryCodeHashes), enabled_at: f.enabledAt,
  last_step: f.lastStep ?? null,
});

export interface StaffTokenRow {
  id: string; user_id: string; hash: string; label: string; hint: string; created_at: string; expires_at: string;
  last_used_at: string | null;
}

export const toStaffToken = (r: StaffTokenRow): StaffApiToken => ({
  id: r.id, userId: r.user_id, hash: r.hash, label: r.label, hint: r.hint, createdAt: r.created_at, expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at ?? undefined,
});

export const staffTokenRow = (t: StaffApiToken): StaffTokenRow => ({
  id: t.id, user_id: t.userId, hash: t.hash, label: t.label, hint: t.hint, created_at: t.createdAt, expires_at: t.expiresAt,
  last_used_at: t.lastUsedAt ?? null,
});

/** Upserts setting every column (the store's puts, and `lanyard store copy`). */
export const STAFF_SQL = {
  putGrant: `INSERT INTO staff_grants (organisation_id, user_id, role, source, granted_at, granted_by)
    VALUES (@organisation_id, @user_id, @role, @source, @granted_at, @granted_by)
    ON CONFLICT (organisation_id, user_id, role) DO UPDATE SET source = excluded.source, granted_at = excluded.granted_at,
    granted_by = excluded.granted_by`,
  putFactor: `INSERT INTO staff_factors (user_id, totp_secret, recovery_code_hashes, enabled_at, last_step)
    VALUES (@user_id, @totp_secret, @recovery_code_hashes, @enabled_at, @last_step)
    ON CONFLICT (user_id) DO UPDATE SET totp_secret = excluded.totp_secret, recovery_code_hashes = excluded.recovery_code_hashes,
    enabled_at = excluded.enabled_at,
    last_step = COALESCE(MAX(excluded.last_step, staff_factors.last_step), excluded.last_step, staff_factors.last_step)`,
  putToken: `INSERT INTO staff_api_tokens (id, user_id, hash, label, hint, created_at, expires_at, last_used_at)
    VALUES (@id, @user_id, @hash, @label, @hint, @created_at, @expires_at, @last_used_at)
    ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, hash = excluded.hash, label = excluded.label, hint = excluded.hint,
    created_at = excluded.created_at, expires_at = excluded.expires_at, last_used_at = excluded.last_used_at`,
};
