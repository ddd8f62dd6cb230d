/**
 * Migration 12: the audit trail (adapters/store/audit.ts), one row per event, or per merged run of events
 * (`aggregate`, unique per organisation where given: failed sign-ins merged per source, method, person and
 * day). `day` is the UTC day of `at`, a virtual column, so that the usage index groups by it. Indexes: a
 * school's events newest first (organisation, at, id); a person's, as actor or as subject, and an app's, each
 * in time order too; the use per day by method and app, covering what auditUsage reads; `at` for the purge
 * and the export.
 * `detail` is JSON text. No reference to the organisation or the users: history is not rewritten by a
 * rename or a deletion.
 */
export const AUDIT = `
CREATE TABLE audit_events (
  id TEXT PRIMARY KEY, organisation_id TEXT NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL, action TEXT NOT NULL,
  actor_id TEXT, actor_name TEXT, subject_id TEXT, subject_name TEXT, method TEXT, device_kind TEXT, client_id TEXT,
  class_id TEXT, result TEXT, source TEXT, count INTEGER NOT NULL, aggregate TEXT, detail TEXT,
  day TEXT GENERATED ALWAYS AS (substr(at, 1, 10)) VIRTUAL
);
CREATE INDEX audit_events_organisation ON audit_events (organisation_id, at, id);
CREATE UNIQUE INDEX audit_events_aggregate ON audit_events (organisation_id, aggregate) WHERE aggregate IS NOT NULL;
CREATE INDEX audit_events_actor ON audit_events (organisation_id, actor_id, at, id) WHERE actor_id IS NOT NULL;
CREATE INDEX audit_events_subject ON audit_events (organisation_id, subject_id, at, id) WHERE subject_id IS NOT NULL;
CREATE INDEX audit_events_client ON audit_events (organisation_id, client_id, at, id) WHERE client_id IS NOT NULL;
CREATE INDEX audit_events_usage ON audit_events (organisation_id, day, kind, method, client_id, count);
CREATE INDEX audit_events_at ON audit_events (at, id);
`;
