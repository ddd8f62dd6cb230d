/**
 * Migration 8: which revision of the configuration file each running instance was started with
 * (docs/operations.md → Rolling configuration changes). Each row is renewed while its instance runs and
 * counts only until `expires_at` (epoch milliseconds on the store's clock); the sweep removes the rest. The
 * revision the store's clients come from is a setting (`config-revision`), so that it is copied with them.
 */
export const RUNNING_REVISIONS = `
CREATE TABLE running_revisions (
  instance TEXT PRIMARY KEY, version INTEGER NOT NULL, hash TEXT NOT NULL, expires_at INTEGER NOT NULL
);
`;
