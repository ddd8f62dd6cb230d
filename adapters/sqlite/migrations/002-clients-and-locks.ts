/** Migration 2: clients and their secrets in the store (live on every instance), and cross-process locks. */
export const CLIENTS_AND_LOCKS = `
CREATE TABLE clients (
  client_id TEXT PRIMARY KEY, name TEXT NOT NULL, redirect_uris TEXT NOT NULL, default_scopes TEXT NOT NULL,
  logout_url TEXT, response_types TEXT NOT NULL, source TEXT NOT NULL, owner_id TEXT, status TEXT NOT NULL,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE client_secrets (
  client_id TEXT NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE, id TEXT NOT NULL,
  hash TEXT NOT NULL, label TEXT NOT NULL, hint TEXT, created_at TEXT NOT NULL, last_used_at TEXT, expires_at TEXT,
  PRIMARY KEY (client_id, id)
);
CREATE TABLE locks (key TEXT PRIMARY KEY, token TEXT NOT NULL, expires_at INTEGER NOT NULL);
`;
