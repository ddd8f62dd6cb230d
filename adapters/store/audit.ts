/**
 * The audit trail (docs/school-console.md → Audit and usage): append-only, per school. Every sign-in (success,
 * and failures merged per source so that a flood cannot fill it), launch, credential change, roster import and
 * console action. Never holds a secret: no credential, code, token or hash. Kept for `audit.retention_days`
 * (src/audit/ writes it in batches and purges it).
 */

/** What happened. */
export type AuditKind = 'sign_in' | 'sign_in_failed' | 'launch' | 'credential' | 'import' | 'console';

export interface AuditEvent {
  /** Time-ordered and unique (src/audit/audit-id.ts): listing goes by (at, id). */
  id: string;
  organisationId: string;
  /** ISO 8601 (for a merged failure: the latest). */
  at: string;
  kind: AuditKind;
  /**
   * What exactly, in a stable dotted word: `sign_in`, `launch`, `emoji.reset`, `badge.voided`, `help_code.issued`,
   * `user.suspended`, `staff.granted`, `roster.applied`, `app.connected`…
   */
  action: string;
  /** Who did it: a user id, `operator` (the command line) or `system`; for a sign-in, the person signing in. */
  actorId?: string | undefined;
  /** The actor's name then (a later rename or deletion does not rewrite history). */
  actorName?: string | undefined;
  /** The person it concerns (the pupil whose emoji was reset; the person who signed in). */
  subjectId?: string | undefined;
  subjectName?: string | undefined;
  /** How they signed in: password, emoji, badge, help_code… */
  method?: string | undefined;
  /** classroom (a trusted classroom device), known (the pupil's own device), other. */
  deviceKind?: string | undefined;
  /** The app signed in to or launched (client_id); `lanyard` for Lanyard's own pages. */
  clientId?: string | undefined;
  /** The class acted on, when one was. */
  classId?: string | undefined;
  /** success, or why not (wrong_credential, locked, suspended, throttled…). */
  result?: string | undefined;
  /** Where from, for sign-ins: the client address (never a secret). */
  source?: string | undefined;
  /** How many events this row stands for (merged failures); 1 otherwise. */
  count: number;
  /**
   * Events with the same organisation and `aggregate` key are one row: count summed, `at` the latest, the
   * rest of the first. Failed sign-ins use it per source, method, pupil and day.
   */
  aggregate?: string | undefined;
  /** Non-secret details (a field's old and new value, an import's counts). */
  detail?: Record<string, string> | undefined;
}

export interface AuditFilter {
  organisationId: string;
  /** ISO 8601, inclusive. */
  from?: string | undefined;
  /** ISO 8601, exclusive. */
  to?: string | undefined;
  /** One of these kinds (an empty list matches nothing). */
  kinds?: AuditKind[] | undefined;
  /** Events whose actor or subject is one of these users (a person, or a class's people; an empty list matches nothing). */
  userIds?: string[] | undefined;
  clientId?: string | undefined;
  /** Only events before this one (by at, then id): the next page. */
  before?: { at: string; id: string } | undefined;
  limit: number;
}

/** One day's use of a school (UTC day). */
export interface UsageDay {
  /** YYYY-MM-DD. */
  day: string;
  /** Successful sign-ins by method. */
  signInsByMethod: Record<string, number>;
  /** Sign-ins and launches by app (client_id). */
  byApp: Record<string, number>;
  /** Failed sign-ins (merged rows counted by their count). */
  failures: number;
}

export interface AuditTrail {
  /**
   * Appends events (a batch, in order); those with an `aggregate` key merge into their row. An event whose id
   * is stored already is skipped, so a batch written again (its first write's answer lost) counts nothing twice.
   */
  appendAudit(events: AuditEvent[]): Promise<void>;
  /** Matching events, newest first (by at, then id), at most `limit`. */
  queryAudit(filter: AuditFilter): Promise<AuditEvent[]>;
  /**
   * The school's use per UTC day from `fromDay` to `toDay` (YYYY-MM-DD, inclusive), oldest first, days with
   * nothing left out (what counts: adapters/store/audit-usage.ts). Cheap: kept per day as events are appended.
   */
  auditUsage(organisationId: string, fromDay: string, toDay: string): Promise<UsageDay[]>;
  /** Removes every event (of every school) before `before` (ISO 8601); returns how many rows. */
  purgeAuditBefore(before: string): Promise<number>;
}
