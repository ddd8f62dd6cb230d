import type { StoredClient, StoredClientSecret } from './clients.js';
import type { AppRequest } from './app-requests.js';
import type { AuditEvent } from './audit.js';
import type { AppConnection } from './connections.js';
import type { DeveloperAccount, DeveloperApiToken, DeveloperEvent, TeamMember } from './developers.js';
import type { CredentialKind, Organisation, RetiredUserId, User } from './directory.js';
import type { ClassLink } from './class-links.js';
import type { HelpCode } from './help-codes.js';
import type { StoredKey } from './keys.js';
import type { StoredLogo } from './logos.js';
import type { OidcPayload } from './oidc-records.js';
import type { StaffApiToken, StaffGrant, StaffSecondFactor } from './staff.js';
import type { AcademicSession, Enrolment, Membership, RosterClass, RosterImportRun } from './roster.js';

/**
 * Everything a store holds, as entries, for `lanyard store copy` (src/cli/store-command.ts): a deployment
 * moves between backends with its sessions, grants and tokens, each keeping its remaining lifetime.
 */
export type StoreEntry =
  | { kind: 'organisation'; value: Organisation }
  | { kind: 'user'; value: User }
  /** The id of a deleted user: never given out again. */
  | { kind: 'retired_user'; value: RetiredUserId }
  | { kind: 'credential'; value: { userId: string; kind: CredentialKind; hash: string } }
  | { kind: 'badge'; value: { codeHash: string; userId: string; organisationId: string; createdAt: number } }
  | { kind: 'academic_session'; value: AcademicSession }
  | { kind: 'class'; value: RosterClass }
  | { kind: 'enrolment'; value: Enrolment }
  | { kind: 'membership'; value: Membership }
  | { kind: 'roster_import'; value: RosterImportRun }
  /** A user's last successful sign-in (ISO 8601). */
  | { kind: 'sign_in'; value: { userId: string; at: string } }
  | { kind: 'client'; value: StoredClient }
  | { kind: 'client_secret'; value: StoredClientSecret }
  | { kind: 'client_logo'; value: StoredLogo }
  | { kind: 'connection'; value: AppConnection }
  | { kind: 'app_request'; value: AppRequest }
  | { kind: 'staff_grant'; value: StaffGrant }
  | { kind: 'staff_factor'; value: StaffSecondFactor }
  | { kind: 'staff_token'; value: StaffApiToken }
  /** Live ones only. */
  | { kind: 'help_code'; value: HelpCode }
  /** Live ones only (neither expired nor revoked). */
  | { kind: 'class_link'; value: ClassLink }
  /** Oldest first. */
  | { kind: 'audit_event'; value: AuditEvent }
  | { kind: 'developer'; value: DeveloperAccount }
  | { kind: 'team_member'; value: TeamMember }
  | { kind: 'api_token'; value: DeveloperApiToken }
  /** Exported oldest first per subject; imported in that order, they keep their order (newest first on read). */
  | { kind: 'developer_event'; value: DeveloperEvent }
  | { kind: 'key'; value: StoredKey }
  | { kind: 'setting'; value: { name: string; value: string } }
  /** `expiresAt`: epoch milliseconds on the store's clock. */
  | { kind: 'oidc'; value: { model: string; id: string; payload: OidcPayload; expiresAt: number } }
  | { kind: 'counter'; value: { key: string; count: number; lastAt: number; expiresAt: number } };

export type EntryKind = StoreEntry['kind'];

/** In dependency order: what an entry refers to comes before it. */
export const ENTRY_KINDS: EntryKind[] = [
  'organisation', 'user', 'retired_user', 'credential', 'badge', 'academic_session', 'class', 'enrolment', 'membership',
  'roster_import', 'sign_in', 'client', 'client_secret', 'client_logo', 'connection', 'app_request',
  'staff_grant', 'staff_factor', 'staff_token', 'help_code', 'class_link', 'audit_event',
  'developer', 'team_member', 'api_token', 'developer_event', 'key', 'setting', 'oidc', 'counter',
];

export interface Transfer {
  /** Every live entry, kinds in ENTRY_KINDS order (expired records and counters are left out). */
  exportEntries(): AsyncIterable<StoreEntry>;
  /** Writes entries as they are (ids, hashes, times kept); entries already expired are skipped. */
  importEntries(entries: StoreEntry[]): Promise<void>;
  /** How many live entries of each kind the store holds. */
  countEntries(): Promise<Record<EntryKind, number>>;
}
