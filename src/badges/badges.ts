import type { Organisation, Store, User } from '../../adapters/store.js';
import { maySignIn } from '../accounts/account-status.js';
import { badgeCodeHash, badgeQrPayload, formatBadgeCode, generateBadgeCode, normalizeBadgeCode } from '../formats/badge-code.js';

export interface IssuedBadge {
  user: User;
  /** As printed: groups of four. */
  code: string;
  qrPayload: string;
}

/** A badge made for the user and not yet issued: what to print, and the hash to store (storeBadge). */
export interface NewBadge extends IssuedBadge {
  codeHash: string;
}

/** A new badge code for the user, not stored yet: for printing first and issuing after (storeBadge). */
export function newBadge(user: User): NewBadge {
  const code = generateBadgeCode();
  return { user, code: formatBadgeCode(code), qrPayload: badgeQrPayload(code), codeHash: badgeCodeHash(code) };
}

/** Issues a badge made by newBadge; the one the user had before stops working (atomically, in the store). */
export async function storeBadge(store: Store, badge: NewBadge): Promise<void> {
  await store.issueBadge(badge.user.id, badge.user.organisationId, badge.codeHash);
}

/** A new badge for the user; the one they had before stops working (atomically, in the store). */
export async function issueBadge(store: Store, user: User): Promise<IssuedBadge> {
  const badge = newBadge(user);
  await storeBadge(store, badge);
  return { user, code: badge.code, qrPayload: badge.qrPayload };
}

/**
 * The holder of an active badge of this organisation, from a typed or scanned code. A suspended holder is
 * answered like an unknown badge (src/accounts/account-status.ts).
 */
export async function findBadgeHolder(store: Store, organisation: Organisation, input: string): Promise<User | undefined> {
  const code = normalizeBadgeCode(input);
  const holder = code ? await store.findBadge(badgeCodeHash(code)) : undefined;
  if (!holder || holder.organisationId !== organisation.id) return undefined;
  const user = await store.findUser(holder.userId);
  return user && maySignIn(user) ? user : undefined;
}
