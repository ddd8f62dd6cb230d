import type { LoginSettings, Store } from '../../adapters/store.js';
import { DEFAULT_LOGIN_SETTINGS } from '../../adapters/store.js';
import { SURNAME_INITIAL_DEFAULT } from '../config/defaults.js';
import type { OrganisationSeed, UserSeed } from '../config/schema.js';
import { badgeCodeHash, normalizeBadgeCode } from '../formats/badge-code.js';
import { hashCredential, verifyCredential } from '../accounts/credential-hasher.js';
import { canonicalEmojiPassword, parseEmojiPassword } from '../formats/emoji-bank.js';
import { seedKey } from '../accounts/import-records.js';

export interface ImportSummary {
  organisations: number;
  users: number;
  passwordsSet: number;
  emojiPasswordsSet: number;
  badgesSet: number;
}

const loginSettings = (seed: OrganisationSeed): LoginSettings => ({
  methods: seed.login_methods ?? DEFAULT_LOGIN_SETTINGS.methods,
  badgeRequiresEmoji: seed.badge_requires_emoji ?? DEFAULT_LOGIN_SETTINGS.badgeRequiresEmoji,
  ...(seed.language ? { language: seed.language } : {}),
  // Written only when it differs from the default, so a school that sets neither keeps the settings it had.
  ...((seed.class_sign_in?.surname_initial ?? SURNAME_INITIAL_DEFAULT) ? { tilesShowSurnameInitial: true } : {}),
});

/**
 * Where an import comes from. `startup`: the configuration file, applied at every start. A credential in it
 * is applied when it is new or differs from what the file said the last time, so a credential changed
 * since with the CLI (an emoji password issued again, a badge revoked) is not undone by a restart.
 * `command`: `lanyard import FILE`, the operator asking for these credentials now: always applied.
 */
export type ImportMode = 'startup' | 'command';

type CredentialSeed = { hash: string } | { plain: string };

/**
 * Applies one password or emoji password from a file; true when the stored credential changed. Only a real
 * change is written, and a written change ends the user's sessions (Directory.setCredential): a hash is
 * compared as a string, a plaintext is verified against the stored hash (argon2). That costs one argon2
 * verification (tens of milliseconds) per plaintext credential per import, minutes for thousands of
 * users; a faster fingerprint of the plaintext would be a fast hash of a low-entropy secret kept beside
 * the real one, so none is kept. Production files carry hashes (plaintext is refused there).
 */
async function applySecret(store: Store, userId: string, kind: 'password' | 'emoji', seed: CredentialSeed, mode: ImportMode): Promise<boolean> {
  if (mode === 'startup') {
    const recorded = await store.getSetting(seedKey(userId, kind));
    const unchanged = recorded !== undefined
      && ('hash' in seed ? seed.hash === recorded : await verifyCredential(recorded, seed.plain));
    if (unchanged) return false;
  }
  const current = await store.getCredential(userId, kind);
  let hash: string;
  if ('hash' in seed) hash = seed.hash;
  else if (current && (await verifyCredential(current, seed.plain))) hash = current; // no needless re-hashing
  else hash = await hashCredential(seed.plain);
  if (hash !== current) await store.setCredential(userId, kind, hash);
  await store.putSetting(seedKey(userId, kind), hash);
  return hash !== current;
}

/** Applies a fixed badge code from a file (development); true when a badge was issued. */
async function applyBadge(store: Store, userId: string, organisationId: string, code: string, mode: ImportMode): Promise<boolean> {
  const hash = badgeCodeHash(code);
  if (mode === 'startup' && (await store.getSetting(seedKey(userId, 'badge'))) === hash) return false;
  const holder = await store.findBadge(hash);
  const issued = holder?.userId !== userId;
  if (issued) await store.issueBadge(userId, organisationId, hash);
  await store.putSetting(seedKey(userId, 'badge'), hash);
  return issued;
}

async function importCredentials(store: Store, userId: string, organisationId: string, u: UserSeed, s: ImportSummary, mode: ImportMode) {
  const password: CredentialSeed | undefined = u.password_hash ? { hash: u.password_hash } : u.password ? { plain: u.password } : undefined;
  if (password && (await applySecret(store, userId, 'password', password, mode))) s.passwordsSet += 1;
  const emoji = u.emoji_password && canonicalEmojiPassword(parseEmojiPassword(u.emoji_password));
  const emojiSeed: CredentialSeed | undefined = u.emoji_password_hash ? { hash: u.emoji_password_hash } : emoji ? { plain: emoji } : undefined;
  if (emojiSeed && (await applySecret(store, userId, 'emoji', emojiSeed, mode))) s.emojiPasswordsSet += 1;
  const badge = u.badge_code && normalizeBadgeCode(u.badge_code);
  if (badge && (await applyBadge(store, userId, organisationId, badge, mode))) s.badgesSet += 1;
}

/**
 * An optional field of a record: left out (undefined), the stored value stays; `null` clears it. A record
 * says what it knows: a file written before a field existed, or by a tool that does not carry it, must not
 * erase what another source (a roster import, an operator) set (docs/configuration.md → Configuration).
 */
const kept = <T>(given: T | null | undefined, stored: T | undefined): T | undefined =>
  given === undefined ? stored : given ?? undefined;

/**
 * Creates or updates organisations and users (by slug, and by username within an organisation).
 * Ids never change, so `sub` stays stable across imports. A user's optional fields are updated only when
 * the record gives them (`kept`). Plaintext secrets are hashed, and only re-hashed when they differ from
 * the stored ones; hashes are stored as given. See ImportMode for when credentials are applied.
 */
export async function importOrganisations(store: Store, seeds: OrganisationSeed[], mode: ImportMode): Promise<ImportSummary> {
  const summary: ImportSummary = { organisations: 0, users: 0, passwordsSet: 0, emojiPasswordsSet: 0, badgesSet: 0 };
  for (const seed of seeds) {
    const org = await store.upsertOrganisation({ slug: seed.slug, name: seed.name, login: loginSettings(seed) });
    summary.organisations += 1;
    for (const u of seed.users ?? []) {
      const stored = await store.findUserByUsername(org.id, u.username);
      const user = await store.upsertUser({
        organisationId: org.id,
        username: u.username,
        givenName: u.given_name,
        familyName: u.family_name,
        type: u.type,
        email: kept(u.email, stored?.email),
        googleEmail: kept(u.google_email, stored?.googleEmail),
        microsoftEmail: kept(u.microsoft_email, stored?.microsoftEmail),
        rosterId: kept(u.roster_id, stored?.rosterId),
      });
      summary.users += 1;
      await importCredentials(store, user.id, org.id, u, summary, mode);
    }
  }
  return summary;
}
