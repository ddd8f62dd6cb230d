/**
 * Migration 7: apps' logos as Lanyard fetched them (docs/security.md → App logos). A client's `logo_hash`
 * names the copy its pages show; the bytes live in `client_logos`, by client and hash, and go with the
 * client. A logo URL stored before this migration has no copy yet: it is shown as the app's initials until
 * the logo is set again (docs/developer-area.md → Registering an app).
 */
export const CLIENT_LOGOS = `
ALTER TABLE clients ADD COLUMN logo_hash TEXT;
CREATE TABLE client_logos (
  client_id TEXT NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
  hash TEXT NOT NULL, content_type TEXT NOT NULL, bytes BLOB NOT NULL, source_url TEXT NOT NULL, fetched_at TEXT NOT NULL,
  PRIMARY KEY (client_id, hash)
);
`;
