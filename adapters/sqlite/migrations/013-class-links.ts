/**
 * Migration 13: class links (adapters/store/class-links.ts), one row per link. `code_hash` is unique (the
 * entry looks a typed code up by it); `ended_ms` is when it stopped opening anything (its expiry, or its
 * revocation if earlier), which the sweep purges by. A class's links are read newest first by
 * (organisation, class, created). No reference to the class: the roster may remove a class while a link to
 * it lives (the link then opens no tiles, and goes at its end).
 */
export const CLASS_LINKS = `
CREATE TABLE class_links (
  id TEXT PRIMARY KEY, organisation_id TEXT NOT NULL REFERENCES organisations (id), class_id TEXT NOT NULL,
  code_hash TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL, created_ms INTEGER NOT NULL, expires_at TEXT NOT NULL,
  expires_ms INTEGER NOT NULL, created_by_id TEXT NOT NULL, created_by_username TEXT NOT NULL, revoked_at TEXT,
  ended_ms INTEGER NOT NULL
);
CREATE INDEX class_links_class ON class_links (organisation_id, class_id, created_ms);
CREATE INDEX class_links_ended ON class_links (ended_ms);
`;
