import type Database from 'better-sqlite3';
import { AUDIT_EXPORT_SQL, AUDIT_IMPORT_SQL, auditRow, type AuditRow, toAuditEvent } from './audit.js';
import { ENTRY_KINDS, type EntryKind, type OidcPayload, type StoreEntry, type Transfer } from '../store.js';
import {
  type ApiTokenRow, apiTokenRow, DEVELOPER_SQL, developerEventRow, type DeveloperEventRow, type DeveloperRow, developerRow,
  type TeamMemberRow, teamMemberRow, toApiToken, toDeveloper, toDeveloperEvent, toTeamMember,
} from './developers.js';
import { CLASS_LINK_UPSERT_SQL, type ClassLinkRow, classLinkRow, LIVE_CLASS_LINKS_WHERE, toClassLink } from './class-links.js';
import { HELP_CODE_UPSERT_SQL, type HelpCodeRow, helpCodeRow, toHelpCode } from './help-codes.js';
import { APP_REQUEST_UPSERT_SQL, type AppRequestRow, appRequestRow, toAppRequest } from './app-requests.js';
import {
  STAFF_SQL, type StaffFactorRow, staffFactorRow, type StaffGrantRow, staffGrantRow, type StaffTokenRow, staffTokenRow, toStaffFactor,
  toStaffGrant, toStaffToken,
} from './staff-rows.js';
import { LOGO_UPSERT_SQL, type LogoRow, logoRow, toLogo } from './logos.js';
import { accountIdOf, clientIdOf } from './oidc-records.js';
import {
  ACADEMIC_SESSION_UPSERT_SQL, type AcademicSessionRow, academicSessionRow, CLASS_UPSERT_SQL, type ClassRow, classRow,
  ENROLMENT_UPSERT_SQL, type EnrolmentRow, enrolmentRow, MEMBERSHIP_COLUMNS, MEMBERSHIP_INSERT_SQL, ROSTER_IMPORT_UPSERT_SQL,
  type RosterImportRow, rosterImportRow, toAcademicSession, toClass, toEnrolment, toRosterImport,
} from './roster-rows.js';
import {
  type ClientRow, clientRow, clientUpsertSql, CONNECTION_UPSERT_SQL, type ConnectionRow, connectionRow, toConnection, type KeyRow, type OrganisationRow, secretRow, type SecretRow, toClient, toKey,
  toOrganisation, toSecret, toUser, type UserRow,
} from './rows.js';

type Row = Record<string, unknown>;

/** What each kind reads (live rows only) and how a row becomes an entry. */
const EXPORTS: { [K in EntryKind]: [sql: string, toEntry: (r: Row) => Extract<StoreEntry, { kind: K }>['value']] } = {
  organisation: ['SELECT * FROM organisations ORDER BY id', (r) => toOrganisation(r as unknown as OrganisationRow)],
  user: ['SELECT * FROM users ORDER BY id', (r) => toUser(r as unknown as UserRow)],
  retired_user: ['SELECT id, retired_at AS retiredAt FROM retired_user_ids ORDER BY id', (r) => r as never],
  credential: ['SELECT user_id AS userId, kind, hash FROM credentials ORDER BY user_id, kind', (r) => r as never],
  badge: ['SELECT code_hash AS codeHash, user_id AS userId, organisation_id AS organisationId, created_at AS createdAt FROM badges ORDER BY code_hash', (r) => r as never],
  academic_session: ['SELECT * FROM academic_sessions ORDER BY id', (r) => toAcademicSession(r as unknown as AcademicSessionRow)],
  class: ['SELECT * FROM classes ORDER BY id', (r) => toClass(r as unknown as ClassRow)],
  enrolment: ['SELECT * FROM enrolments ORDER BY class_id, user_id', (r) => toEnrolment(r as unknown as EnrolmentRow)],
  membership: [`SELECT ${MEMBERSHIP_COLUMNS} FROM memberships ORDER BY user_id, organisation_id, role`, (r) => r as never],
  roster_import: ['SELECT * FROM roster_imports ORDER BY at, id', (r) => toRosterImport(r as unknown as RosterImportRow)],
  sign_in: ['SELECT user_id AS userId, at FROM user_sign_ins ORDER BY user_id', (r) => r as never],
  client: ['SELECT * FROM clients ORDER BY client_id', (r) => toClient(r as unknown as ClientRow)],
  client_secret: ['SELECT * FROM client_secrets ORDER BY client_id, id', (r) => toSecret(r as unknown as SecretRow)],
  client_logo: ['SELECT * FROM client_logos ORDER BY client_id, hash', (r) => toLogo(r as unknown as LogoRow)],
  connection: ['SELECT * FROM app_connections ORDER BY organisation_id, position, client_id', (r) => toConnection(r as unknown as ConnectionRow)],
  app_request: ['SELECT * FROM app_requests ORDER BY organisation_id, client_id', (r) => toAppRequest(r as unknown as AppRequestRow)],
  staff_grant: ['SELECT * FROM staff_grants ORDER BY organisation_id, user_id, role', (r) => toStaffGrant(r as unknown as StaffGrantRow)],
  staff_factor: ['SELECT * FROM staff_factors ORDER BY user_id', (r) => toStaffFactor(r as unknown as StaffFactorRow)],
  staff_token: ['SELECT * FROM staff_api_tokens ORDER BY id', (r) => toStaffToken(r as unknown as StaffTokenRow)],
  help_code: ['SELECT * FROM help_codes WHERE expires_ms > @now ORDER BY user_id', (r) => toHelpCode(r as unknown as HelpCodeRow)],
  class_link: [`SELECT * FROM class_links WHERE ${LIVE_CLASS_LINKS_WHERE} ORDER BY id`, (r) => toClassLink(r as unknown as ClassLinkRow)],
  audit_event: [AUDIT_EXPORT_SQL, (r) => toAuditEvent(r as unknown as AuditRow)],
  developer: ['SELECT * FROM developers ORDER BY id', (r) => toDeveloper(r as unknown as DeveloperRow)],
  team_member: ['SELECT * FROM team_members ORDER BY client_id, developer_id', (r) => toTeamMember(r as unknown as TeamMemberRow)],
  api_token: ['SELECT * FROM developer_api_tokens ORDER BY id', (r) => toApiToken(r as unknown as ApiTokenRow)],
  // Oldest first (in the order appended): imported in this order, events keep their order.
  developer_event: ['SELECT * FROM developer_events ORDER BY subject, seq', (r) => toDeveloperEvent(r as unknown as DeveloperEventRow)],
  key: ['SELECT * FROM signing_keys ORDER BY month, created_at, kid', (r) => toKey(r as unknown as KeyRow)],
  setting: ['SELECT name, value FROM settings ORDER BY name', (r) => r as never],
  oidc: ['SELECT model, id, payload, expires_at AS expiresAt FROM oidc_records WHERE expires_at > @now ORDER BY model, id',
    (r) => ({ model: r.model as string, id: r.id as string, payload: JSON.parse(r.payload as string) as OidcPayload, expiresAt: r.expiresAt as number })],
  counter: ['SELECT key, count, last_at AS lastAt, expires_at AS expiresAt FROM counters WHERE expires_at > @now ORDER BY key', (r) => r as never],
};

const TABLES: Record<EntryKind, string> = {
  organisation: 'organisations', user: 'users', retired_user: 'retired_user_ids', credential: 'credentials', badge: 'badges',
  academic_session: 'academic_sessions', class: 'classes', enrolment: 'enrolments', membership: 'memberships', roster_import: 'roster_imports',
  sign_in: 'user_sign_ins', client: 'clients',
  client_secret: 'client_secrets', client_logo: 'client_logos', connection: 'app_connections',
  app_request: 'app_requests', staff_grant: 'staff_grants', staff_factor: 'staff_factors', staff_token: 'staff_api_tokens',
  help_code: 'help_codes', class_link: 'class_links', audit_event: 'audit_events', developer: 'developers', team_member: 'team_members', api_token: 'developer_api_tokens',
  developer_event: 'developer_events', key: 'signing_keys', setting: 'settings', oidc: 'oidc_records', counter: 'counters',
};

/** Export, import and counts for `lanyard store copy`. */
export function sqliteTransfer(db: Database.Database, now: () => number): Transfer {
  const w = {
    // Rows others refer to are updated in place, never replaced: REPLACE deletes first, which would cascade
    // to a client's secrets or trip the users → organisations reference when merging into a populated store.
    organisation: db.prepare(`INSERT INTO organisations (id, slug, name, login, source_id) VALUES (@id, @slug, @name, @login, @sourceId)
      ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, name = excluded.name, login = excluded.login, source_id = excluded.source_id`),
    user: db.prepare(`INSERT INTO users (id, organisation_id, username, given_name, family_name, type, email,
      google_email, microsoft_email, roster_id, suspended_at, sessions_valid_after, source_id, roster_hold, roster_hold_since)
      VALUES (@id, @organisationId, @username, @givenName, @familyName, @type, @email, @googleEmail, @microsoftEmail, @rosterId,
      @suspendedAt, @sessionsValidAfter, @sourceId, @rosterHold, @rosterHoldSince)
      ON CONFLICT (id) DO UPDATE SET organisation_id = excluded.organisation_id, username = excluded.username,
      given_name = excluded.given_name, family_name = excluded.family_name, type = excluded.type, email = excluded.email,
      google_email = excluded.google_email, microsoft_email = excluded.microsoft_email, roster_id = excluded.roster_id,
      suspended_at = excluded.suspended_at, sessions_valid_after = excluded.sessions_valid_after, source_id = excluded.source_id,
      roster_hold = excluded.roster_hold, roster_hold_since = excluded.roster_hold_since`),
    academic_session: db.prepare(ACADEMIC_SESSION_UPSERT_SQL),
    class: db.prepare(CLASS_UPSERT_SQL),
    enrolment: db.prepare(ENROLMENT_UPSERT_SQL),
    membership: db.prepare(MEMBERSHIP_INSERT_SQL),
    roster_import: db.prepare(ROSTER_IMPORT_UPSERT_SQL),
    sign_in: db.prepare(`INSERT INTO user_sign_ins (user_id, at) VALUES (@userId, @at)
      ON CONFLICT (user_id) DO UPDATE SET at = excluded.at`),
    retired_user: db.prepare('INSERT OR REPLACE INTO retired_user_ids (id, retired_at) VALUES (@id, @retiredAt)'),
    credential: db.prepare('INSERT OR REPLACE INTO credentials (user_id, kind, hash) VALUES (@userId, @kind, @hash)'),
    badge: db.prepare('INSERT OR REPLACE INTO badges (code_hash, user_id, organisation_id, created_at) VALUES (@codeHash, @userId, @organisationId, @createdAt)'),
    client: db.prepare(clientUpsertSql(false)),
    connection: db.prepare(CONNECTION_UPSERT_SQL),
    app_request: db.prepare(APP_REQUEST_UPSERT_SQL),
    staff_grant: db.prepare(STAFF_SQL.putGrant),
    staff_factor: db.prepare(STAFF_SQL.putFactor),
    staff_token: db.prepare(STAFF_SQL.putToken),
    help_code: db.prepare(HELP_CODE_UPSERT_SQL),
    class_link: db.prepare(CLASS_LINK_UPSERT_SQL),
    audit_event: db.prepare(AUDIT_IMPORT_SQL),
    client_logo: db.prepare(LOGO_UPSERT_SQL),
    client_secret: db.prepare(`INSERT OR REPLACE INTO client_secrets (client_id, id, hash, label, hint, created_at,
      last_used_at, expires_at) VALUES (@client_id, @id, @hash, @label, @hint, @created_at, @last_used_at, @expires_at)`),
    // By id, keeping the target's email index consistent: an account of the same email under another id is
    // replaced (REPLACE removes the row that conflicts on either key).
    developer: db.prepare(`INSERT OR REPLACE INTO developers (id, email, display_name, password_hash, totp_secret,
      recovery_code_hashes, sessions_valid_after, created_at, updated_at, email_verified_at) VALUES (@id, @email, @display_name,
      @password_hash, @totp_secret, @recovery_code_hashes, @sessions_valid_after, @created_at, @updated_at, @email_verified_at)`),
    team_member: db.prepare(DEVELOPER_SQL.putTeamMember),
    api_token: db.prepare(DEVELOPER_SQL.putApiToken),
    developer_event: db.prepare(DEVELOPER_SQL.importEvent),
    key: db.prepare(`INSERT OR REPLACE INTO signing_keys (kid, month, not_before, not_after, certificate,
      encrypted_private_key, created_at, revoked_at) VALUES (@kid, @month, @notBefore, @notAfter, @certificate,
      @encryptedPrivateKey, @createdAt, @revokedAt)`),
    setting: db.prepare('INSERT OR REPLACE INTO settings (name, value) VALUES (@name, @value)'),
    oidc: db.prepare(`INSERT OR REPLACE INTO oidc_records (model, id, payload, grant_id, uid, user_code, account_id,
      client_id, expires_at) VALUES (@model, @id, @payload, @grantId, @uid, @userCode, @accountId, @clientId, @expiresAt)`),
    counter: db.prepare('INSERT OR REPLACE INTO counters (key, count, last_at, expires_at) VALUES (@key, @count, @lastAt, @expiresAt)'),
  };
  const write = (e: StoreEntry) => {
    switch (e.kind) {
      case 'organisation': return w.organisation.run({ ...e.value, login: JSON.stringify(e.value.login), sourceId: e.value.sourceId ?? null });
      case 'user': {
        const u = e.value;
        return w.user.run({
          ...u, email: u.email ?? null, googleEmail: u.googleEmail ?? null, microsoftEmail: u.microsoftEmail ?? null,
          rosterId: u.rosterId ?? null, suspendedAt: u.suspendedAt ?? null, sessionsValidAfter: u.sessionsValidAfter ?? null,
          sourceId: u.sourceId ?? null, rosterHold: u.rosterHold ?? null, rosterHoldSince: u.rosterHoldSince ?? null,
        });
      }
      case 'academic_session': return w.academic_session.run(academicSessionRow(e.value));
      case 'class': return w.class.run(classRow(e.value));
      case 'enrolment': return w.enrolment.run(enrolmentRow(e.value));
      case 'roster_import': return w.roster_import.run(rosterImportRow(e.value));
      case 'client': return w.client.run(clientRow(e.value));
      case 'client_secret': return w.client_secret.run(secretRow(e.value));
      case 'client_logo': return w.client_logo.run(logoRow(e.value));
      case 'connection': return w.connection.run(connectionRow(e.value));
      case 'app_request': return w.app_request.run(appRequestRow(e.value));
      case 'staff_grant': return w.staff_grant.run(staffGrantRow(e.value));
      case 'staff_factor': return w.staff_factor.run(staffFactorRow(e.value));
      case 'staff_token': return w.staff_token.run(staffTokenRow(e.value));
      case 'help_code': return Date.parse(e.value.expiresAt) <= now() ? undefined : w.help_code.run(helpCodeRow(e.value));
      case 'class_link': return e.value.revokedAt !== undefined || Date.parse(e.value.expiresAt) <= now() ? undefined : w.class_link.run(classLinkRow(e.value));
      case 'audit_event': return w.audit_event.run(auditRow(e.value));
      case 'developer': return w.developer.run(developerRow(e.value));
      case 'team_member': return w.team_member.run(teamMemberRow(e.value));
      case 'api_token': return w.api_token.run(apiTokenRow(e.value));
      case 'developer_event': return w.developer_event.run(developerEventRow(e.value));
      case 'key': return w.key.run({ ...e.value, revokedAt: e.value.revokedAt ?? null });
      case 'oidc': {
        const { payload } = e.value;
        if (e.value.expiresAt <= now()) return undefined;
        return w.oidc.run({
          ...e.value, payload: JSON.stringify(payload), grantId: payload.grantId ?? null, uid: payload.uid ?? null,
          userCode: payload.userCode ?? null, accountId: accountIdOf(payload), clientId: clientIdOf(payload),
        });
      }
      case 'counter': return e.value.expiresAt <= now() ? undefined : w.counter.run(e.value);
      case 'audit_event': return undefined;
      default: return w[e.kind].run(e.value);
    }
  };
  const importAll = db.transaction((entries: StoreEntry[]) => { for (const e of entries) write(e); });
  const count = (kind: EntryKind) => {
    const live = kind === 'oidc' || kind === 'counter' ? ' WHERE expires_at > @now' : kind === 'help_code' ? ' WHERE expires_ms > @now'
      : kind === 'class_link' ? ` WHERE ${LIVE_CLASS_LINKS_WHERE}` : '';
    const stmt = db.prepare(`SELECT count(*) AS n FROM ${TABLES[kind]}${live}`);
    return ((live ? stmt.get({ now: now() }) : stmt.get()) as { n: number }).n;
  };

  return {
    async *exportEntries() {
      for (const kind of ENTRY_KINDS) {
        const [sql, toEntry] = EXPORTS[kind];
        for (const row of db.prepare(sql).iterate(sql.includes('@now') ? { now: now() } : {})) {
          yield { kind, value: toEntry(row as Row) } as StoreEntry;
        }
      }
    },
    async importEntries(entries) { importAll.immediate(entries); },
    async countEntries() {
      return Object.fromEntries(ENTRY_KINDS.map((k) => [k, count(k)])) as Record<EntryKind, number>;
    },
  };
}
