import type { RosterClass, Store, User } from '../../adapters/store.js';
import { maySignIn } from '../accounts/account-status.js';
import { hashCredential } from '../accounts/credential-hasher.js';
import { generatePassword } from '../accounts/user-password.js';
import { type NewBadge, newBadge, storeBadge } from '../badges/badges.js';
import { canonicalEmojiPassword, type EmojiName, generateEmojiPassword } from '../formats/emoji-bank.js';

/**
 * Credentials for many users at once — a class's pupils, or users named — of one kind: emoji passwords,
 * passwords or badges (`lanyard credentials issue`, docs/rostering.md → Credentials for a class). In steps,
 * so that what is printed is made before anything changes: `drawCredentials` draws the secrets,
 * `hashCredentials` hashes them, `storeCredentials` stores them, each user's on its own (each replaced
 * credential ends its user's sessions, as the one-user commands do: Directory.setCredential, Badges.issueBadge).
 */

export type CredentialMethod = 'emoji' | 'password' | 'badge';
export const CREDENTIAL_METHODS: readonly CredentialMethod[] = ['emoji', 'password', 'badge'];

/** The enrolment role whose holders a class's credentials are for (OneRoster's, lower case). */
export const PUPIL_ROLE = 'student';

/** Who was chosen, and who of a class was left out because they cannot sign in (suspended, or held by the roster). */
export interface Selection {
  users: User[];
  /** A class's pupils left out: suspended or on a roster hold (left, disabled). */
  unable: User[];
}

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }).compare;
const nameOrder = (a: User, b: User) => byName(a.familyName, b.familyName) || byName(a.givenName, b.givenName) || byName(a.username, b.username);

/**
 * The pupils of `inClass` (enrolled as students; by family name, then given name) who can sign in, then the
 * `named` users in the order given; each user once.
 */
export async function selectUsers(store: Store, o: { inClass?: RosterClass | undefined; named?: User[] }): Promise<Selection> {
  const unable: User[] = [];
  const pupils: User[] = [];
  if (o.inClass) {
    const enrolled = (await store.classEnrolments(o.inClass.id)).filter((e) => e.role === PUPIL_ROLE);
    for (const user of await Promise.all(enrolled.map((e) => store.findUser(e.userId)))) {
      if (!user) continue;
      (maySignIn(user) ? pupils : unable).push(user);
    }
    pupils.sort(nameOrder);
  }
  const users = [...new Map([...pupils, ...(o.named ?? [])].map((u) => [u.id, u])).values()];
  return { users, unable };
}

/**
 * The users of `users` who already have a credential of this kind (a badge: an active one). Each is looked up
 * in their own organisation: a class's pupil may be a member whose own school is another one.
 */
export async function holders(store: Store, users: readonly User[], method: CredentialMethod): Promise<Set<string>> {
  const ids = new Set(users.map((u) => u.id));
  const held = new Set<string>();
  for (const organisationId of new Set(users.map((u) => u.organisationId))) {
    const found = method === 'badge'
      ? await store.badgeHolders(organisationId)
      : [...await store.credentialKinds(organisationId)].filter(([, kinds]) => kinds.includes(method)).map(([userId]) => userId);
    for (const userId of found) if (ids.has(userId)) held.add(userId);
  }
  return held;
}

/** A credential drawn for one user: what is printed. Not hashed, not stored. */
export type Drawn =
  | { method: 'emoji'; user: User; pictures: EmojiName[] }
  | { method: 'password'; user: User; password: string }
  | { method: 'badge'; user: User; badge: NewBadge };

/** A drawn credential with what is stored for it (an argon2id hash; a badge carries its own SHA-256). */
export type Prepared = Exclude<Drawn, { method: 'badge' }> & { hash: string } | Extract<Drawn, { method: 'badge' }>;

/** A new credential of `method` for each user, in the same order: emoji pictures, a password or a badge code. */
export function drawCredentials(users: readonly User[], method: CredentialMethod): Drawn[] {
  return users.map((user): Drawn => {
    if (method === 'badge') return { method, user, badge: newBadge(user) };
    if (method === 'password') return { method, user, password: generatePassword() };
    return { method, user, pictures: generateEmojiPassword() };
  });
}

/**
 * The drawn credentials with their hashes, in the same order. All are handed to the credential hasher at
 * once: its Limiter runs as many argon2 hashes together as the machine allows (src/process/sizing.ts
 * argon2Slots), on libuv's threads, and queues the rest — so the caller can lay out the PDF meanwhile.
 */
export function hashCredentials(drawn: readonly Drawn[]): Promise<Prepared[]> {
  return Promise.all(drawn.map(async (d): Promise<Prepared> => {
    if (d.method === 'badge') return d;
    const plain = d.method === 'password' ? d.password : canonicalEmojiPassword(d.pictures)!;
    return { ...d, hash: await hashCredential(plain) };
  }));
}

/** What storing did: whose credential was stored, and whose write failed (theirs is as it was). */
export interface Stored {
  /** In the order given. */
  stored: Prepared[];
  failed: { prepared: Prepared; error: unknown }[];
}

/**
 * Stores prepared credentials; each replaces the user's credential of that kind and ends their sessions if
 * it had one. Each user's write is their own: one that fails leaves that user's credential as it was and the
 * others stored, so the caller learns exactly whose secrets are now in force (and must keep what it printed
 * for them).
 */
export async function storeCredentials(store: Store, prepared: readonly Prepared[]): Promise<Stored> {
  const outcomes = await Promise.allSettled(prepared.map((p) => (p.method === 'badge' ? storeBadge(store, p.badge) : store.setCredential(p.user.id, p.method, p.hash))));
  const result: Stored = { stored: [], failed: [] };
  outcomes.forEach((o, i) => {
    if (o.status === 'fulfilled') result.stored.push(prepared[i]!);
    else result.failed.push({ prepared: prepared[i]!, error: o.reason });
  });
  return result;
}
