/**
 * Migration 1: the schema of Lanyard 0.1 (every statement IF NOT EXISTS, so a database created by 0.1,
 * before migrations were versioned, upgrades in place).
 */
export const INITIAL = `
CREATE TABLE IF NOT EXISTS oidc_records (
  model TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL,
  grant_id TEXT, uid TEXT, user_code TEXT, expires_at INTEGER NOT NULL,
  PRIMARY KEY (model, id)
);
CREATE INDEX IF NOT EXISTS oidc_records_uid ON oidc_records (model, uid);
CREATE INDEX IF NOT EXISTS oidc_records_user_code ON oidc_records (model, user_code);
CREATE INDEX IF NOT EXISTS oidc_records_grant ON oidc_records (grant_id);
CREATE INDEX IF NOT EXISTS oidc_records_expiry ON oidc_records (expires_at);
CREATE TABLE IF NOT EXISTS organisations (
  id TEXT PRIMARY KEY, slug TEXT NOT NULL UNIQUE COLLATE NOCASE, name TEXT NOT NULL, login TEXT
);
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY, organisation_id TEXT NOT NULL REFERENCES organisations (id),
  username TEXT NOT NULL COLLATE NOCASE, given_name TEXT NOT NULL, family_name TEXT NOT NULL,
  type TEXT NOT NULL, email TEXT, google_email TEXT, microsoft_email TEXT, roster_id TEXT,
  UNIQUE (organisation_id, username)
);
CREATE TABLE IF NOT EXISTS credentials (
  user_id TEXT NOT NULL REFERENCES users (id), kind TEXT NOT NULL, hash TEXT NOT NULL,
  PRIMARY KEY (user_id, kind)
);
CREATE TABLE IF NOT EXISTS signing_keys (
  kid TEXT PRIMARY KEY, month TEXT NOT NULL, not_before TEXT NOT NULL, not_after TEXT NOT NULL,
  certificate TEXT NOT NULL, encrypted_private_key TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT
);
-- At most one active (unrevoked) key per month: the create-if-absent race is settled here.
CREATE UNIQUE INDEX IF NOT EXISTS signing_keys_active_month ON signing_keys (month) WHERE revoked_at IS NULL;
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Badges are kept only as the SHA-256 of their code (128-bit secrets: a fast hash is enough, and it is the lookup key).
CREATE TABLE IF NOT EXISTS badges (
  code_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users (id),
  organisation_id TEXT NOT NULL REFERENCES organisations (id), created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS badges_user ON badges (user_id);
CREATE INDEX IF NOT EXISTS badges_organisation ON badges (organisation_id);
CREATE TABLE IF NOT EXISTS counters (
  key TEXT PRIMARY KEY, count INTEGER NOT NULL, last_at INTEGER NOT NULL, expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS counters_expiry ON counters (expires_at);
`;
