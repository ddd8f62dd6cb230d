import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { secureCookieFor, setCookie } from '../src/http/cookie-header.js';
import { matchesAnyKey, readCookie } from '../src/http/signed-value.js';

/**
 * When an organisation wants badge + emoji, the badge step hands the emoji step a ticket: the badge
 * holder's id, bound to this interaction, valid a few minutes, signed with the first cookie key and
 * accepted under any configured one (a key rotation never breaks a ticket already handed out). It travels
 * in a cookie on the interaction's own path, so that the badge's POST can answer 303 to the pictures' page
 * (a reload there never sends the badge again).
 */
const TICKET_MS = 5 * 60_000;
const TICKET_COOKIE = 'lanyard_badge_ticket';

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

const ticketPath = (uid: string) => `/interaction/${uid}/badge`;

/** Hands the ticket to the browser for this interaction's badge pages, for as long as it is valid. */
export function giveTicket(req: FastifyRequest, reply: FastifyReply, uid: string, ticket: string): void {
  setCookie(reply, { name: TICKET_COOKIE, value: ticket, path: ticketPath(uid), maxAge: TICKET_MS / 1000, secure: secureCookieFor(req) });
}

/** The ticket the browser holds, if any (redeemTicket says whether it is any good). */
export const heldTicket = (req: FastifyRequest): string | undefined => readCookie(req.headers.cookie, TICKET_COOKIE);

/** Takes the ticket back once the sign-in is done. */
export function dropTicket(req: FastifyRequest, reply: FastifyReply, uid: string): void {
  setCookie(reply, { name: TICKET_COOKIE, value: '', path: ticketPath(uid), maxAge: 0, secure: secureCookieFor(req) });
}
