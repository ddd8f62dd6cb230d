/**
 * Migration 3: a credential change, a suspension or a deletion ends what a user's sessions and tokens
 * protected (src/accounts/user-admin.ts). Users get a suspension and a "sessions valid after" instant;
 * protocol records are indexed by the account they belong to (filled in for the records already there);
 * the ids of deleted users are kept so that none is given out again.
 */
export const ACCOUNT_SESSIONS = `
ALTER TABLE users ADD COLUMN suspended_at TEXT;
ALTER TABLE users ADD COLUMN sessions_valid_after INTEGER;
ALTER TABLE oidc_records ADD COLUMN account_id TEXT;
UPDATE oidc_records SET account_id = json_extract(payload, '$.accountId')
  WHERE json_valid(payload) AND json_type(payload, '$.accountId') = 'text';
CREATE INDEX oidc_records_account ON oidc_records (account_id) WHERE account_id IS NOT NULL;
CREATE TABLE retired_user_ids (id TEXT PRIMARY KEY, retired_at TEXT NOT NULL);
`;
