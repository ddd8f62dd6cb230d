/**
 * Migration 4: the developer area (SPEC: client registration "managed in a developer area"). Developer
 * accounts (separate from school users; one account per email, compared lower-cased), the teams that own
 * apps, personal API tokens (hashes only), the history of every change, the details an app shows, and
 * protocol records indexed by the client they were issued to (deleting an app revokes its grants and tokens).
 * No foreign keys to clients: a team or a history outlives nothing by accident (the app service removes a
 * deleted app's team), and both backends behave alike.
 */
export const DEVELOPER_AREA = `
CREATE TABLE developers (
  id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, display_name TEXT NOT NULL, password_hash TEXT NOT NULL,
  totp_secret TEXT, recovery_code_hashes TEXT, sessions_valid_after TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE team_members (
  client_id TEXT NOT NULL, developer_id TEXT NOT NULL, role TEXT NOT NULL, added_at TEXT NOT NULL, invited_by TEXT,
  PRIMARY KEY (client_id, developer_id)
);
CREATE INDEX team_members_developer ON team_members (developer_id);
CREATE TABLE developer_api_tokens (
  id TEXT PRIMARY KEY, developer_id TEXT NOT NULL, hash TEXT NOT NULL, label TEXT NOT NULL, hint TEXT NOT NULL,
  created_at TEXT NOT NULL, expires_at TEXT NOT NULL, last_used_at TEXT
);
CREATE INDEX developer_api_tokens_developer ON developer_api_tokens (developer_id);
-- seq: the order events were appended in, which breaks ties between events of the same instant.
CREATE TABLE developer_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, subject TEXT NOT NULL, at TEXT NOT NULL, actor_id TEXT NOT NULL,
  actor_name TEXT NOT NULL, action TEXT NOT NULL, detail TEXT NOT NULL
);
CREATE INDEX developer_events_subject ON developer_events (subject, at);
ALTER TABLE clients ADD COLUMN description TEXT;
ALTER TABLE clients ADD COLUMN homepage_url TEXT;
ALTER TABLE clients ADD COLUMN logo_url TEXT;
ALTER TABLE clients ADD COLUMN review_note TEXT;
ALTER TABLE oidc_records ADD COLUMN client_id TEXT;
UPDATE oidc_records SET client_id = json_extract(payload, '$.clientId')
  WHERE json_valid(payload) AND json_type(payload, '$.clientId') = 'text';
CREATE INDEX oidc_records_client ON oidc_records (client_id) WHERE client_id IS NOT NULL;
`;
