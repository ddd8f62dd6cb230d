import { createHmac } from 'node:crypto';
import { matchesAnyKey } from '../src/http/signed-value.js';

/**
 * When an organisation wants badge + emoji, the badge step hands the emoji step a ticket: the badge
 * holder's id, bound to this interaction, valid a few minutes, signed with the first cookie key and
 * accepted under any configured one (a key rotation never breaks a ticket already handed out).
 */
const TICKET_MS = 5 * 60_000;

const mac = (key: string, uid: string, userId: string, expires: number) =>
  createHmac('sha256', key).update(`badge-ticket:${uid}:${userId}:${expires}`).digest('base64url');

export function issueTicket(keys: readonly string[], uid: string, userId: string, nowMs: number): string {
  const expires = nowMs + TICKET_MS;
  return `${userId}.${expires}.${mac(keys[0]!, uid, userId, expires)}`;
}

/** The user id the ticket was issued for, when it is genuine, for this interaction and not expired. */
export function redeemTicket(keys: readonly string[], uid: string, ticket: unknown, nowMs: number): string | undefined {
  if (typeof ticket !== 'string') return undefined;
  const [userId, expiresText, given] = ticket.split('.');
  const expires = Number(expiresText);
  if (!userId || !given || !Number.isFinite(expires) || expires < nowMs) return undefined;
  return matchesAnyKey(keys, given, (key) => mac(key, uid, userId, expires)) ? userId : undefined;
}
