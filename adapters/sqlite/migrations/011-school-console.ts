/**
 * Migration 11: the school console's own records (docs/storage.md → The school console). A pupil's help code
 * is one row under the pupil (its hash, never the code), with its expiry both as written and in epoch
 * milliseconds, which reads and the sweep compare. Staff: a grant is one per school, person and role; a second
 * factor one per person (its unused recovery-code hashes as JSON text, the last TOTP step accepted); an API token
 * one per id, its owner indexed. An app's request to a school is one per school and client; as with the
 * connections, no foreign key to clients: deleting a client deletes its requests in the same transaction
 * (adapters/sqlite/clients.ts).
 */
export const SCHOOL_CONSOLE = `
CREATE TABLE help_codes (
  user_id TEXT PRIMARY KEY REFERENCES users (id), organisation_id TEXT NOT NULL REFERENCES organisations (id),
  code_hash TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL, expires_ms INTEGER NOT NULL,
  issued_by TEXT NOT NULL, failures INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX help_codes_organisation ON help_codes (organisation_id);
CREATE INDEX help_codes_expiry ON help_codes (expires_ms);
CREATE TABLE staff_grants (
  organisation_id TEXT NOT NULL REFERENCES organisations (id), user_id TEXT NOT NULL REFERENCES users (id),
  role TEXT NOT NULL, source TEXT NOT NULL, granted_at TEXT NOT NULL, granted_by TEXT,
  PRIMARY KEY (organisation_id, user_id, role)
) WITHOUT ROWID;
CREATE INDEX staff_grants_user ON staff_grants (user_id);
CREATE TABLE staff_factors (
  user_id TEXT PRIMARY KEY REFERENCES users (id), totp_secret TEXT NOT NULL, recovery_code_hashes TEXT NOT NULL,
  enabled_at TEXT NOT NULL, last_step INTEGER
) WITHOUT ROWID;
CREATE TABLE staff_api_tokens (
  id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users (id), hash TEXT NOT NULL, label TEXT NOT NULL,
  hint TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL, last_used_at TEXT
);
CREATE INDEX staff_api_tokens_user ON staff_api_tokens (user_id);
CREATE TABLE app_requests (
  organisation_id TEXT NOT NULL, client_id TEXT NOT NULL, requested_by TEXT NOT NULL, requested_at TEXT NOT NULL,
  note TEXT, status TEXT NOT NULL, answer TEXT, answered_at TEXT,
  PRIMARY KEY (organisation_id, client_id)
) WITHOUT ROWID;
CREATE INDEX app_requests_client ON app_requests (client_id);
`;
