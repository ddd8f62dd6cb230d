import { createHash } from 'node:crypto';
import type { OidcPayload, Store } from './store.js';

/**
 * oidc-provider's record ids are its bearer values: an access or refresh token, an authorization code, the
 * session cookie's value. Stored as they are, whoever reads the store or a backup of it could use them. So
 * the store keeps them only as SHA-256 (`sha256:<base64url>`; the values are 256 random bits, so a fast hash
 * is enough), and their payloads without the id (`jti`) or the session cookie an Interaction copies
 * (`session.cookie`, which oidc-provider never reads back). These are oidc-provider's models whose ids are
 * bearer values; Grant ids open nothing and are what revocation goes by (`grantId`), ReplayDetection ids are
 * digests already, and Lanyard's own records (the developer area's) are stored by the same secretKey() where
 * they write them.
 */
const HASHED_MODELS = new Set([
  'Session', 'Interaction', 'AuthorizationCode', 'AccessToken', 'RefreshToken', 'ClientCredentials', 'DeviceCode',
  'BackchannelAuthenticationRequest', 'PushedAuthorizationRequest', 'InitialAccessToken', 'RegistrationAccessToken',
]);

const PREFIX = 'sha256:';

const hashesIds = (model: string): boolean => HASHED_MODELS.has(model);

/** SHA-256, base64url: a stored format, so it is this module's own and never follows a change elsewhere. */
const sha256 = (id: string): string => createHash('sha256').update(id, 'utf8').digest('base64url');

/** The id a record of `model` is stored under. */
export const storedId = (model: string, id: string): string =>
  (hashesIds(model) ? `${PREFIX}${sha256(id)}` : id);

/** What is stored of a payload: no bearer value in it. */
export function storedPayload(model: string, payload: OidcPayload): OidcPayload {
  if (!hashesIds(model)) return payload;
  const { jti: _jti, ...rest } = payload;
  const session = rest.session as Record<string, unknown> | undefined;
  if (session && typeof session === 'object' && 'cookie' in session) {
    const { cookie: _cookie, ...kept } = session;
    rest.session = kept;
  }
  return rest;
}

/** The payload oidc-provider gets back: its id restored (found by the id, the caller knows it). */
export const foundPayload = (model: string, id: string, payload: OidcPayload | undefined): OidcPayload | undefined =>
  (payload && hashesIds(model) && !('jti' in payload) ? { ...payload, jti: id } : payload);

/** The setting that says the store's records are stored by hash (written once the conversion is done). */
export const RECORD_IDS_HASHED = 'oidc-record-ids-hashed';

/**
 * Converts records stored by an earlier version (ids and payloads in the clear) to what storedId and
 * storedPayload make, each keeping its remaining lifetime; once per store (RECORD_IDS_HASHED). Safe to run
 * twice at once (two instances starting together): each step is an upsert or a removal. Returns how many.
 */
export async function hashStoredRecordIds(store: Store, now: () => number): Promise<number> {
  if (await store.getSetting(RECORD_IDS_HASHED)) return 0;
  // Read first, then write: a store's export may hold its database open while it iterates.
  const legacy: { model: string; id: string; payload: OidcPayload; expiresAt: number }[] = [];
  for await (const entry of store.exportEntries()) {
    if (entry.kind === 'oidc' && hashesIds(entry.value.model) && !entry.value.id.startsWith(PREFIX)) legacy.push(entry.value);
  }
  for (const { model, id, payload, expiresAt } of legacy) {
    const seconds = (expiresAt - now()) / 1000;
    if (seconds > 0) await store.oidc.upsert(model, storedId(model, id), storedPayload(model, payload), seconds);
    await store.oidc.destroy(model, id);
  }
  if (legacy.length) await store.scrub?.();
  await store.putSetting(RECORD_IDS_HASHED, new Date(now()).toISOString());
  return legacy.length;
}
