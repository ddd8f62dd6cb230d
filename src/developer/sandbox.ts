import { randomInt } from 'node:crypto';
import QRCode from 'qrcode';
import type { CredentialKind, LoginSettings, Organisation, Store, User } from '../../adapters/store.js';
import { hashCredential } from '../accounts/credential-hasher.js';
import { canonicalEmojiPassword, emojiGlyph, generateEmojiPassword } from '../formats/emoji-bank.js';
import { withStoreLock } from '../accounts/store-lock.js';
import { badgeCodeHash, badgeQrPayload, formatBadgeCode, generateBadgeCode, normalizeBadgeCode } from '../formats/badge-code.js';
import { ConfigError } from '../errors.js';
import { SANDBOX_SLUG } from '../config/reserved.js';

export { SANDBOX_SLUG };

/**
 * The sandbox school every developer tests with (docs/developer-area.md): a test organisation with a teacher, a pupil
 * with an emoji password, a pupil with a badge, a pupil with a password and an admin. An app in development
 * signs in only its users (src/clients/app-availability.ts), so the whole flow, emoji and badge sign-in
 * included, can be tried before any real child is involved.
 *
 * Its credentials are TEST CREDENTIALS MEANT TO BE SHOWN TO EVERY DEVELOPER (the developer area's sandbox
 * page and GET /developer/api/sandbox): they are generated at random once, on the first start, and kept in
 * the setting `sandbox-credentials` so every instance and every restart shows the same ones. They protect
 * nothing but these five test users. The users' credentials themselves are stored as usual (argon2id
 * hashes, a badge as the SHA-256 of its code), and the sign-in screens treat them like any other.
 */

export const SANDBOX_NAME = 'Lanyard Sandbox School';
const SANDBOX_LOGIN: LoginSettings = { methods: ['emoji', 'badge', 'password'], badgeRequiresEmoji: false };

/** The setting with the test users' plaintext credentials (shown to developers, see above). */
export const SANDBOX_CREDENTIALS_SETTING = 'sandbox-credentials';
/** Which organisation is the sandbox school (its id): another school that took the slug earlier is never adopted. */
const SANDBOX_ORGANISATION_SETTING = 'sandbox-organisation';
/** The hashes ensureSandbox last stored, by `<userId>:<kind>`: a credential changed since is put back, unchanged ones cost nothing. */
const SANDBOX_APPLIED_SETTING = 'sandbox-applied';
const LOCK = 'sandbox:ensure';
/** Generous: hashing four credentials with argon2id takes well under a second. */
const LOCK_TIMES = { ttlMs: 60_000, waitMs: 60_000 };

type SandboxKey = 'teacher' | 'emoji-pupil' | 'badge-pupil' | 'password-pupil' | 'admin';
type Secret = 'password' | 'emoji' | 'badge';

interface SandboxUserSpec {
  key: SandboxKey;
  role: string;
  secret: Secret;
  user: Omit<User, 'id' | 'organisationId' | 'suspendedAt' | 'sessionsValidAfter'>;
}

/** The five test users, with claims that show what an app receives (an email, a matched Google account, a roster id). */
const SANDBOX_USERS: readonly SandboxUserSpec[] = [
  {
    key: 'teacher', role: 'Teacher', secret: 'password',
    user: { username: 'teacher', givenName: 'Tamsin', familyName: 'Teacher', type: 'employee', email: 'teacher@sandbox.lanyard.invalid' },
  },
  {
    key: 'emoji-pupil', role: 'Pupil with an emoji password', secret: 'emoji',
    user: { username: 'emoji-pupil', givenName: 'Emil', familyName: 'Emoji', type: 'student' },
  },
  {
    key: 'badge-pupil', role: 'Pupil with a badge', secret: 'badge',
    user: { username: 'badge-pupil', givenName: 'Bea', familyName: 'Badge', type: 'student', rosterId: 'sandbox-roster-0001' },
  },
  {
    key: 'password-pupil', role: 'Pupil with a password', secret: 'password',
    user: { username: 'password-pupil', givenName: 'Pim', familyName: 'Password', type: 'student', googleEmail: 'password-pupil@sandbox-google.lanyard.invalid' },
  },
  {
    key: 'admin', role: 'School admin', secret: 'password',
    user: { username: 'admin', givenName: 'Ada', familyName: 'Admin', type: 'admin', email: 'admin@sandbox.lanyard.invalid' },
  },
];

/** The stored setting: one secret per test user. */
interface StoredSecrets {
  version: 1;
  users: Partial<Record<SandboxKey, { password?: string; emoji?: string[]; badge?: string }>>;
}

/** Easy to read aloud and type on a phone: no 0/o, 1/l/i. 3 × 4 characters of 31, about 59 bits. */
const PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const readablePassword = () => Array.from({ length: 3 }, () =>
  Array.from({ length: 4 }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join('')).join('-');

function generateSecrets(): StoredSecrets {
  const users: StoredSecrets['users'] = {};
  for (const spec of SANDBOX_USERS) {
    if (spec.secret === 'password') users[spec.key] = { password: readablePassword() };
    else if (spec.secret === 'emoji') users[spec.key] = { emoji: generateEmojiPassword() };
    else users[spec.key] = { badge: generateBadgeCode() };
  }
  return { version: 1, users };
}

/** The stored secrets, with any user's missing one filled in (a user added to SANDBOX_USERS later). */
async function secretsOf(store: Store): Promise<StoredSecrets> {
  const stored = JSON.parse(await store.getOrCreateSetting(SANDBOX_CREDENTIALS_SETTING, () => JSON.stringify(generateSecrets()))) as StoredSecrets;
  let fresh: StoredSecrets | undefined; // made only when a user lacks a secret
  let missing = false;
  for (const spec of SANDBOX_USERS) {
    const s = stored.users[spec.key];
    const ok = spec.secret === 'password' ? !!s?.password
      : spec.secret === 'emoji' ? !!(s?.emoji && canonicalEmojiPassword(s.emoji))
        : !!(s?.badge && normalizeBadgeCode(s.badge));
    if (!ok) {
      fresh ??= generateSecrets();
      stored.users[spec.key] = fresh.users[spec.key]!;
      missing = true;
    }
  }
  if (missing) await store.putSetting(SANDBOX_CREDENTIALS_SETTING, JSON.stringify(stored));
  return stored;
}

/**
 * The sandbox school itself: found by its recorded id, or created. An organisation that already had the
 * slug `sandbox` before Lanyard made its sandbox (an earlier import) is a real school: it is adopted only
 * while it has no users, and otherwise startup stops rather than let development apps sign its users in.
 */
async function sandboxOrganisation(store: Store): Promise<{ organisation: Organisation; created: boolean }> {
  const recorded = await store.getSetting(SANDBOX_ORGANISATION_SETTING);
  const existing = await store.findOrganisation(SANDBOX_SLUG);
  if (existing && existing.slug === SANDBOX_SLUG && existing.id !== recorded && (await store.listUsers(existing.id)).length > 0) {
    throw new ConfigError([
      `the store has an organisation with the slug "${SANDBOX_SLUG}" (${existing.name}, ${existing.id}) that is not Lanyard's sandbox school: `
      + `the slug is reserved for the developer sandbox, whose test users development apps may sign in; move its users to an organisation with another slug`,
    ]);
  }
  const same = existing && existing.slug === SANDBOX_SLUG && existing.name === SANDBOX_NAME
    && existing.login.methods.join() === SANDBOX_LOGIN.methods.join() && existing.login.badgeRequiresEmoji === SANDBOX_LOGIN.badgeRequiresEmoji
    && existing.login.language === SANDBOX_LOGIN.language && !existing.login.tilesShowSurnameInitial;
  const organisation = same ? existing : await store.upsertOrganisation({ slug: SANDBOX_SLUG, name: SANDBOX_NAME, login: SANDBOX_LOGIN });
  if (recorded !== organisation.id) await store.putSetting(SANDBOX_ORGANISATION_SETTING, organisation.id);
  return { organisation, created: !existing };
}

const USER_FIELDS = ['username', 'givenName', 'familyName', 'type', 'email', 'googleEmail', 'microsoftEmail', 'rosterId'] as const;
const sameUser = (u: User, spec: SandboxUserSpec) => USER_FIELDS.every((k) => u[k] === spec.user[k]);

export interface SandboxSummary {
  organisation: Organisation;
  /** The school was created now (the first start on this store). */
  created: boolean;
  /** Test users created again (deleted with `lanyard users delete`) or repaired (suspended, credential changed). */
  repaired: string[];
}

/**
 * Makes sure the sandbox school and its five test users exist with the credentials developers are shown:
 * run at every start (src/startup/services.ts), and again when a developer opens the sandbox page and a user is
 * missing. Idempotent and safe on many instances at once: the credentials are created once (an atomic
 * getOrCreateSetting), the rest runs under a store lock. A test user deleted with `lanyard users delete`
 * comes back (with a new id: a deleted id is never reused); one suspended, or whose credential was changed
 * with the CLI, is put back as shown.
 */
export async function ensureSandbox(store: Store): Promise<SandboxSummary> {
  const secrets = await secretsOf(store);
  return withStoreLock(store, LOCK, LOCK_TIMES, async () => {
    const { organisation, created } = await sandboxOrganisation(store);
    const applied = JSON.parse((await store.getSetting(SANDBOX_APPLIED_SETTING)) ?? '{}') as Record<string, string>;
    const nextApplied: Record<string, string> = {};
    const repaired: string[] = [];
    for (const spec of SANDBOX_USERS) {
      const secret = secrets.users[spec.key]!;
      let user = await store.findUserByUsername(organisation.id, spec.user.username);
      let changed = false;
      if (!user || !sameUser(user, spec)) {
        if (user) changed = true; // else: created now (a first start, or deleted since)
        else if (!created) repaired.push(spec.user.username);
        user = await store.upsertUser({ ...spec.user, organisationId: organisation.id });
      }
      if (user.suspendedAt) {
        await store.setSuspended(user.id, undefined);
        changed = true;
      }
      if (spec.secret === 'badge') {
        const code = normalizeBadgeCode(secret.badge!)!;
        const hash = badgeCodeHash(code);
        if ((await store.findBadge(hash))?.userId !== user.id) {
          await store.issueBadge(user.id, organisation.id, hash);
          changed ||= applied[`${user.id}:badge`] !== undefined;
        }
        nextApplied[`${user.id}:badge`] = hash;
      } else {
        const kind: CredentialKind = spec.secret;
        const plain = kind === 'password' ? secret.password! : canonicalEmojiPassword(secret.emoji!)!;
        const key = `${user.id}:${kind}`;
        const current = await store.getCredential(user.id, kind);
        let hash = current;
        if (!current || current !== applied[key]) {
          if (current) changed = true;
          hash = await hashCredential(plain);
          await store.setCredential(user.id, kind, hash);
        }
        nextApplied[key] = hash!;
      }
      if (changed && !repaired.includes(spec.user.username)) repaired.push(spec.user.username);
    }
    if (JSON.stringify(applied) !== JSON.stringify(nextApplied)) await store.putSetting(SANDBOX_APPLIED_SETTING, JSON.stringify(nextApplied));
    return { organisation, created, repaired };
  });
}

/** One test user as a developer sees it: who they are and how they sign in. */
export interface SandboxUserCredentials {
  /** What this user is for: "Teacher", "Pupil with an emoji password", … */
  role: string;
  /** The `type` claim. */
  type: string;
  username: string;
  givenName: string;
  familyName: string;
  /** Their `sub`. */
  id: string;
  password?: string;
  /** The emoji password in order, each picture with its name. */
  emoji?: { name: string; glyph: string }[];
  /** The magic badge: its code as printed, and its QR code as a PNG data URL (hold it up to a camera, or print it). */
  badge?: { code: string; qrDataUrl: string };
}

export interface SandboxCredentials {
  organisation: { id: string; slug: string; name: string };
  users: SandboxUserCredentials[];
}

/** A badge QR code as a PNG data URL: black on white with a quiet zone, as on printed badges. */
const qrDataUrl = (payload: string) => QRCode.toDataURL(payload, { errorCorrectionLevel: 'M', margin: 4, width: 264 });

/**
 * The sandbox school and its test users' credentials, for the developer area (see the note at the top:
 * shown to every developer on purpose). A test user missing since the last start is made again first.
 */
export async function sandboxCredentials(store: Store): Promise<SandboxCredentials> {
  let organisation = await store.findOrganisation(SANDBOX_SLUG);
  let users = organisation ? await store.listUsers(organisation.id) : [];
  const find = (spec: SandboxUserSpec) => users.find((u) => u.username === spec.user.username);
  if (!organisation || SANDBOX_USERS.some((spec) => !find(spec) || find(spec)!.suspendedAt)) {
    organisation = (await ensureSandbox(store)).organisation;
    users = await store.listUsers(organisation.id);
  }
  const secrets = await secretsOf(store);
  const out: SandboxUserCredentials[] = [];
  for (const spec of SANDBOX_USERS) {
    const user = find(spec)!;
    const secret = secrets.users[spec.key]!;
    const entry: SandboxUserCredentials = {
      role: spec.role, type: user.type, username: user.username, givenName: user.givenName, familyName: user.familyName, id: user.id,
    };
    if (secret.password) entry.password = secret.password;
    if (secret.emoji) entry.emoji = secret.emoji.map((name) => ({ name, glyph: emojiGlyph(name)! }));
    if (secret.badge) {
      const code = normalizeBadgeCode(secret.badge)!;
      entry.badge = { code: formatBadgeCode(code), qrDataUrl: await qrDataUrl(badgeQrPayload(code)) };
    }
    out.push(entry);
  }
  return { organisation: { id: organisation.id, slug: organisation.slug, name: organisation.name }, users: out };
}
