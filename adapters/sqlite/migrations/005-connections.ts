/**
 * Migration 5: the dashboard (docs/dashboard-and-app-launch.md). The apps each school uses (`app_connections`, in the school's
 * order, optionally for some user types only), an app's `initiate_login_uri` (OpenID Connect Core §4), and
 * whether a configuration-file client is connected to every school (`all_organisations`: rewritten at every
 * start from the file). No foreign key to clients: deleting a client deletes its connections in the same
 * transaction (adapters/sqlite/clients.ts), as the Redis backend does in one script.
 */
export const CONNECTIONS = `
CREATE TABLE app_connections (
  organisation_id TEXT NOT NULL, client_id TEXT NOT NULL, position INTEGER NOT NULL, user_types TEXT,
  source TEXT NOT NULL, created_at TEXT NOT NULL,
  PRIMARY KEY (organisation_id, client_id)
);
CREATE INDEX app_connections_client ON app_connections (client_id);
ALTER TABLE clients ADD COLUMN initiate_login_uri TEXT;
ALTER TABLE clients ADD COLUMN all_organisations INTEGER NOT NULL DEFAULT 0;
`;
