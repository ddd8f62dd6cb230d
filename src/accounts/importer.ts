import type { LoginSettings, Store } from '../../adapters/store.js';
import { DEFAULT_LOGIN_SETTINGS } from '../../adapters/store.js';
import type { OrganisationSeed, UserSeed } from '../config.js';
import { badgeCodeHash, normalizeBadgeCode } from '../badges/badge-code.js';
import { hashCredential, verifyCredential } from './credential-hasher.js';
import { canonicalEmojiPassword, parseEmojiPassword } from './emoji-bank.js';

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
});

/** Stores a hash for a plaintext secret unless the stored hash already matches it (no needless re-hashing). */
async function setSecret(store: Store, userId: string, kind: 'password' | 'emoji', plain: string): Promise<boolean> {
  const current = await store.getCredential(userId, kind);
  if (current && (await verifyCredential(current, plain))) return false;
  await store.setCredential(userId, kind, await hashCredential(plain));
  return true;
}

async function importCredentials(store: Store, userId: string, organisationId: string, u: UserSeed, s: ImportSummary) {
  if (u.password_hash) {
    await store.setCredential(userId, 'password', u.password_hash);
    s.passwordsSet += 1;
  } else if (u.password && (await setSecret(store, userId, 'password', u.password))) {
    s.passwordsSet += 1;
  }
  if (u.emoji_password_hash) {
    await store.setCredential(userId, 'emoji', u.emoji_password_hash);
    s.emojiPasswordsSet += 1;
  } else if (u.emoji_password) {
    const canonical = canonicalEmojiPassword(parseEmojiPassword(u.emoji_password));
    if (canonical && (await setSecret(store, userId, 'emoji', canonical))) s.emojiPasswordsSet += 1;
  }
  const badge = u.badge_code && normalizeBadgeCode(u.badge_code);
  if (badge) {
    const holder = await store.findBadge(badgeCodeHash(badge));
    if (holder?.userId !== userId) {
      await store.issueBadge(userId, organisationId, badgeCodeHash(badge));
      s.badgesSet += 1;
    }
  }
}

/**
 * Creates or updates organisations and users (by slug, and by username within an organisation).
 * Ids never change, so `sub` stays stable across imports. Plaintext secrets are hashed, and only
 * re-hashed when they differ from the stored ones; hashes are stored as given.
 */
export async function importOrganisations(store: Store, seeds: OrganisationSeed[]): Promise<ImportSummary> {
  const summary: ImportSummary = { organisations: 0, users: 0, passwordsSet: 0, emojiPasswordsSet: 0, badgesSet: 0 };
  for (const seed of seeds) {
    const org = await store.upsertOrganisation({ slug: seed.slug, name: seed.name, login: loginSettings(seed) });
    summary.organisations += 1;
    for (const u of seed.users ?? []) {
      const user = await store.upsertUser({
        organisationId: org.id,
        username: u.username,
        givenName: u.given_name,
        familyName: u.family_name,
        type: u.type,
        email: u.email,
        googleEmail: u.google_email,
        microsoftEmail: u.microsoft_email,
        rosterId: u.roster_id,
      });
      summary.users += 1;
      await importCredentials(store, user.id, org.id, u, summary);
    }
  }
  return summary;
}
