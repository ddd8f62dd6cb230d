import type Database from 'better-sqlite3';
import { LanyardError } from '../../src/errors.js';
import type { DeveloperAccount, DeveloperApiToken, DeveloperEvent, Developers, TeamMember } from '../store.js';
import { earlierEmailKey, normaliseEmail } from '../store/developers.js';
import { byKeys } from '../store/collation.js';

/** Row shapes of migration 4 (adapters/sqlite/migrations/004-developer-area.ts) and their mapping. */
export interface DeveloperRow {
  id: string; email: string; display_name: string; password_hash: string; totp_secret: string | null;
  recovery_code_hashes: string | null; sessions_valid_after: string | null; created_at: string; updated_at: string;
  /** Migration 7. */
  email_verified_at: string | null;
}

export interface TeamMemberRow { client_id: string; developer_id: string; role: string; added_at: string; invited_by: string | null }

export interface ApiTokenRow {
  id: string; developer_id: string; hash: string; label: string; hint: string; created_at: string; expires_at: string;
  last_used_at: string | null;
}

export interface DeveloperEventRow {
  subject: string; at: string; actor_id: string; actor_name: string; action: string; detail: string;
}

/** Emails are compared (and kept) lower-cased: one account per address however it is typed. */

export const toDeveloper = (r: DeveloperRow): DeveloperAccount => ({
  id: r.id,
  email: r.email,
  displayName: r.display_name,
  passwordHash: r.password_hash,
  totpSecret: r.totp_secret ?? undefined,
  recoveryCodeHashes: r.recovery_code_hashes === null ? undefined : (JSON.parse(r.recovery_code_hashes) as string[]),
  sessionsValidAfter: r.sessions_valid_after ?? undefined,
  emailVerifiedAt: r.email_verified_at ?? undefined,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const developerRow = (a: DeveloperAccount): DeveloperRow => ({
  id: a.id, email: normaliseEmail(a.email), display_name: a.displayName, password_hash: a.passwordHash,
  totp_secret: a.totpSecret ?? null,
  recovery_code_hashes: a.recoveryCodeHashes === undefined ? null : JSON.stringify(a.recoveryCodeHashes),
  sessions_valid_after: a.sessionsValidAfter ?? null, created_at: a.createdAt, updated_at: a.updatedAt,
  email_verified_at: a.emailVerifiedAt ?? null,
});

export const toTeamMember = (r: TeamMemberRow): TeamMember => ({
  clientId: r.client_id, developerId: r.developer_id, role: r.role as TeamMember['role'], addedAt: r.added_at,
  invitedBy: r.invited_by ?? undefined,
});

export const teamMemberRow = (m: TeamMember): TeamMemberRow => ({
  client_id: m.clientId, developer_id: m.developerId, role: m.role, added_at: m.addedAt, invited_by: m.invitedBy ?? null,
});

export const toApiToken = (r: ApiTokenRow): DeveloperApiToken => ({
  id: r.id,
  developerId: r.developer_id,
  hash: r.hash,
  label: r.label,
  hint: r.hint,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at ?? undefined,
});

export const apiTokenRow = (t: DeveloperApiToken): ApiTokenRow => ({
  id: t.id, developer_id: t.developerId, hash: t.hash, label: t.label, hint: t.hint, created_at: t.createdAt,
  expires_at: t.expiresAt, last_used_at: t.lastUsedAt ?? null,
});

export const toDeveloperEvent = (r: DeveloperEventRow): DeveloperEvent => ({
  subject: r.subject, at: r.at, actorId: r.actor_id, actorName: r.actor_name, action: r.action,
  detail: JSON.parse(r.detail) as DeveloperEvent['detail'],
});

export const developerEventRow = (e: DeveloperEvent): DeveloperEventRow => ({
  subject: e.subject, at: e.at, actor_id: e.actorId, actor_name: e.actorName, action: e.action,
  detail: JSON.stringify(e.detail),
});

/** Upserts shared with the import (adapters/sqlite/transfer.ts). */
export const DEVELOPER_SQL = {
  putTeamMember: `INSERT INTO team_members (client_id, developer_id, role, added_at, invited_by)
    VALUES (@client_id, @developer_id, @role, @added_at, @invited_by)
    ON CONFLICT (client_id, developer_id) DO UPDATE SET role = excluded.role, added_at = excluded.added_at,
    invited_by = excluded.invited_by`,
  putApiToken: `INSERT INTO developer_api_tokens (id, developer_id, hash, label, hint, created_at, expires_at, last_used_at)
    VALUES (@id, @developer_id, @hash, @label, @hint, @created_at, @expires_at, @last_used_at)
    ON CONFLICT (id) DO UPDATE SET developer_id = excluded.developer_id, hash = excluded.hash, label = excluded.label,
    hint = excluded.hint, created_at = excluded.created_at, expires_at = excluded.expires_at,
    last_used_at = excluded.last_used_at`,
  appendEvent: `INSERT INTO developer_events (subject, at, actor_id, actor_name, action, detail)
    VALUES (@subject, @at, @actor_id, @actor_name, @action, @detail)`,
  /** An event has no id: the import skips one the store already holds, so a copy run again adds no duplicates. */
  importEvent: `INSERT INTO developer_events (subject, at, actor_id, actor_name, action, detail)
    SELECT @subject, @at, @actor_id, @actor_name, @action, @detail WHERE NOT EXISTS (SELECT 1 FROM developer_events
    WHERE subject = @subject AND at = @at AND actor_id = @actor_id AND actor_name = @actor_name AND action = @action
    AND detail = @detail)`,
};

/** Teams, memberships and tokens in the order they were made (sorted here: a statement with a parameter must not sort). */
const teamOrder = byKeys<TeamMemberRow>((m) => m.added_at, (m) => m.developer_id);
const membershipOrder = byKeys<TeamMemberRow>((m) => m.added_at, (m) => m.client_id);
const tokenOrder = byKeys<ApiTokenRow>((t) => t.created_at, (t) => t.id);

/**
 * The developer area's records in SQLite. The unique email column settles the create race between
 * processes (the insert that loses changes nothing); events are read newest first by time, then by the
 * order they were appended in.
 */
export function sqliteDevelopers(db: Database.Database): Developers {
  const q = {
    create: db.prepare(`INSERT INTO developers (id, email, display_name, password_hash, totp_secret,
      recovery_code_hashes, sessions_valid_after, created_at, updated_at, email_verified_at) VALUES (@id, @email, @display_name,
      @password_hash, @totp_secret, @recovery_code_hashes, @sessions_valid_after, @created_at, @updated_at, @email_verified_at)
      ON CONFLICT (email) DO NOTHING`),
    find: db.prepare('SELECT * FROM developers WHERE id = ?'),
    findByEmail: db.prepare('SELECT * FROM developers WHERE email = ?'),
    // The email is left as it is: it is the account's unique key, not changed through an update.
    update: db.prepare(`UPDATE developers SET display_name = @display_name, password_hash = @password_hash,
      totp_secret = @totp_secret, recovery_code_hashes = @recovery_code_hashes,
      sessions_valid_after = @sessions_valid_after, created_at = @created_at, updated_at = @updated_at,
      email_verified_at = @email_verified_at WHERE id = @id`),
    all: db.prepare('SELECT * FROM developers ORDER BY email'),
    putMember: db.prepare(DEVELOPER_SQL.putTeamMember),
    removeMember: db.prepare('DELETE FROM team_members WHERE client_id = ? AND developer_id = ?'),
    team: db.prepare('SELECT * FROM team_members WHERE client_id = ?'),
    memberships: db.prepare('SELECT * FROM team_members WHERE developer_id = ?'),
    deleteTeam: db.prepare('DELETE FROM team_members WHERE client_id = ?'),
    putToken: db.prepare(DEVELOPER_SQL.putApiToken),
    findToken: db.prepare('SELECT * FROM developer_api_tokens WHERE id = ?'),
    tokens: db.prepare('SELECT * FROM developer_api_tokens WHERE developer_id = ?'),
    deleteToken: db.prepare('DELETE FROM developer_api_tokens WHERE developer_id = ? AND id = ?'),
    touchToken: db.prepare('UPDATE developer_api_tokens SET last_used_at = ? WHERE id = ?'),
    appendEvent: db.prepare(DEVELOPER_SQL.appendEvent),
    events: db.prepare('SELECT * FROM developer_events WHERE subject = ? ORDER BY at DESC, seq DESC LIMIT ?'),
  };
  return {
    async createDeveloper(account) { return q.create.run(developerRow(account)).changes === 1; },
    async findDeveloper(id) {
      const row = q.find.get(id) as DeveloperRow | undefined;
      return row && toDeveloper(row);
    },
    async findDeveloperByEmail(email) {
      const normalised = normaliseEmail(email);
      const earlier = earlierEmailKey(normalised);
      const row = (q.findByEmail.get(normalised) ?? (earlier ? q.findByEmail.get(earlier) : undefined)) as DeveloperRow | undefined;
      return row && toDeveloper(row);
    },
    async updateDeveloper(account) {
      if (q.update.run(developerRow(account)).changes !== 1) {
        throw new LanyardError('not_found', `developer ${account.id} does not exist`, 404, true);
      }
    },
    async listDevelopers() { return (q.all.all() as DeveloperRow[]).map(toDeveloper); },

    async putTeamMember(member) { q.putMember.run(teamMemberRow(member)); },
    async removeTeamMember(clientId, developerId) { return q.removeMember.run(clientId, developerId).changes === 1; },
    async listTeam(clientId) { return (q.team.all(clientId) as TeamMemberRow[]).sort(teamOrder).map(toTeamMember); },
    async listMemberships(developerId) { return (q.memberships.all(developerId) as TeamMemberRow[]).sort(membershipOrder).map(toTeamMember); },
    async deleteTeam(clientId) { q.deleteTeam.run(clientId); },

    async putApiToken(token) { q.putToken.run(apiTokenRow(token)); },
    async findApiToken(id) {
      const row = q.findToken.get(id) as ApiTokenRow | undefined;
      return row && toApiToken(row);
    },
    async listApiTokens(developerId) { return (q.tokens.all(developerId) as ApiTokenRow[]).sort(tokenOrder).map(toApiToken); },
    async deleteApiToken(developerId, id) { return q.deleteToken.run(developerId, id).changes === 1; },
    async touchApiToken(id, at) { q.touchToken.run(at, id); },

    async appendDeveloperEvent(event) { q.appendEvent.run(developerEventRow(event)); },
    async listDeveloperEvents(subject, limit) {
      const n = Number.isFinite(limit) ? Math.floor(limit) : Number.MAX_SAFE_INTEGER; // Infinity: all of them
      if (!(n > 0)) return [];
      return (q.events.all(subject, n) as DeveloperEventRow[]).map(toDeveloperEvent);
    },
  };
}
