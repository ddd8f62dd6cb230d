/**
 * Migration 11: the school console's own records (docs/storage.md → The school console). A pupil's help code
 * is one row under the pupil (its hash, never the code), with its expiry both as written and in epoch
 * milliseconds, which reads and the sweep compare.
 */
export const SCHOOL_CONSOLE = `
CREATE TABLE help_codes (
  user_id TEXT PRIMARY KEY REFERENCES users (id), organisation_id TEXT NOT NULL REFERENCES organisations (id),
  code_hash TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL, expires_ms INTEGER NOT NULL,
  issued_by TEXT NOT NULL, failures INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX help_codes_organisation ON help_codes (organisation_id);
CREATE INDEX help_codes_expiry ON help_codes (expires_ms);
`;
