import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeveloperAccount } from '../../../adapters/store.js';
import { signValue, verifySignedValue } from '../../http/signed-value.js';
import { developerHeader, postButton } from '../../web/components.js';
import { csrfToken, csrfValid } from '../../web/csrf.js';
import { html, type Raw } from '../../web/html.js';
import { layout } from '../../web/layout.js';
import type { DeveloperDeps } from '../deps.js';
import { clearDeveloperCookie, cookieOf, setDeveloperCookie } from '../developer-cookies.js';
import { DeveloperSessions } from '../developer-sessions.js';
import { ForbiddenError } from '../errors.js';
import { M } from './account-messages.js';
import { HOME, safeNext } from './account-next.js';

/** A developer signed in to the developer area in this browser. */
export interface SignedIn {
  developer: DeveloperAccount;
  /** The CSRF token every form of this session carries (src/web/components.ts csrfField). */
  csrf: string;
  /**
   * The session: its key (the SHA-256 of its cookie), which CSRF tokens and reveals are bound to, and when the
   * person signed in (epoch ms: kept when the session is re-issued).
   */
  session: { key: string; authAt: number };
}

/** Makes the SignedIn of a session (after a sign-in, or a session re-issued on this request). */
export const signedInAs = (deps: Pick<DeveloperDeps, 'cookieKeys'>, developer: DeveloperAccount, session: { key: string; authAt: number }): SignedIn =>
  ({ developer, csrf: csrfToken(deps.cookieKeys, `developer:${session.key}`), session: { key: session.key, authAt: session.authAt } });

/**
 * The signed-in developer; or undefined after answering: a 303 to /developer/sign-in?next=<this path> for a
 * GET, a 303 the same way (nothing changed) for a POST whose session is gone.
 */
export async function signedIn(deps: DeveloperDeps, req: FastifyRequest, reply: FastifyReply): Promise<SignedIn | undefined> {
  const sessions = new DeveloperSessions(deps);
  const session = await sessions.current(req);
  // Pages of a signed-in developer are never cached (back-button after sign-out shows nothing).
  reply.header('Cache-Control', 'no-store');
  if (!session) {
    if (cookieOf(req, 'lanyard_developer')) sessions.forget(reply);
    // A POST's URL is an action, not a page to come back to: it goes back to the app list.
    const next = req.method === 'GET' || req.method === 'HEAD' ? safeNext(req.url) : HOME;
    reply.redirect(next === HOME ? '/developer/sign-in' : `/developer/sign-in?next=${encodeURIComponent(next)}`, 303);
    return undefined;
  }
  return signedInAs(deps, session.developer, session);
}

/** Throws ForbiddenError (403) unless the form's `csrf` field is this session's token. */
export function checkCsrf(deps: DeveloperDeps, who: SignedIn, body: unknown): void {
  const presented = (body as Record<string, unknown> | null | undefined)?.csrf;
  if (!csrfValid(deps.cookieKeys, `developer:${who.session.key}`, presented)) throw new ForbiddenError(M.csrfRefused);
}

const NAV: { id: 'apps' | 'sandbox' | 'account' | 'docs'; label: string; href: string }[] = [
  { id: 'apps', label: 'Apps', href: '/developer' },
  { id: 'sandbox', label: 'Sandbox', href: '/developer/sandbox' },
  { id: 'account', label: 'Account', href: '/developer/account' },
  { id: 'docs', label: 'Guide', href: '/docs' },
];

/**
 * The developer area's page frame: the layout with its navigation (Apps, Sandbox, Account, Guide, Sign out).
 * One short word a link, so that the menu fits a phone's width whole rather than scrolling.
 */
export function developerLayout(title: string, body: Raw, who: SignedIn, current?: 'apps' | 'sandbox' | 'account' | 'docs'): string {
  const nav = developerHeader('Developer area', NAV.map((n) => ({ ...n, current: n.id === current })), html`<div class="dev-nav-user">
    <span class="dev-nav-name">${who.developer.displayName}</span>
    ${postButton('/developer/sign-out', who.csrf, 'Sign out')}
  </div>`);
  return layout(title, body, { nav, wide: true });
}

/** The flash message (not a secret, but signed so no one else can put words on Lanyard's page). */
const FLASH_COOKIE = 'lanyard_developer_flash';
const FLASH_SECONDS = 60;

/** A one-time message for the next page (after a 303): kept in a short-lived signed cookie. */
export function setFlash(deps: DeveloperDeps, reply: FastifyReply, message: string): void {
  const value = signValue(deps.cookieKeys, 'developer-flash', Buffer.from(message, 'utf8').toString('base64url'));
  setDeveloperCookie(deps, reply, FLASH_COOKIE, value, FLASH_SECONDS);
}

/** Reads (and clears) the one-time message. */
export function takeFlash(deps: DeveloperDeps, req: FastifyRequest, reply: FastifyReply): string | undefined {
  const value = cookieOf(req, FLASH_COOKIE);
  if (!value) return undefined;
  clearDeveloperCookie(deps, reply, FLASH_COOKIE);
  const message = verifySignedValue(deps.cookieKeys, 'developer-flash', value);
  return message === undefined ? undefined : Buffer.from(message, 'base64url').toString('utf8');
}

/**
 * Values shown once (a new secret, token or recovery codes) travel to the page after the 303 in this cookie,
 * encrypted with AES-256-GCM under a key derived (HKDF-SHA-256) from the key-encryption key, with the
 * session's key as associated data: it opens only for the session that made it, and only for 5 minutes.
 * It also names a single-use record in the store, consumed when the value is shown: the same cookie sent
 * again (a stolen session's copy, a replayed request) shows nothing.
 */
const REVEAL_COOKIE = 'lanyard_developer_reveal';
const REVEAL_MODEL = 'DeveloperReveal';
const REVEAL_SECONDS = 300;
const revealKeys = new WeakMap<Buffer, Buffer>();
const revealKey = (kek: Buffer): Buffer => {
  let key = revealKeys.get(kek);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', kek, Buffer.from('lanyard'), Buffer.from('developer-area reveal cookie v1'), 32));
    revealKeys.set(kek, key);
  }
  return key;
};

/**
 * A value shown exactly once on the page after a 303 (a new client secret, API token or recovery codes): it
 * travels in an encrypted (AES-256-GCM), HttpOnly, short-lived cookie bound to this session, never in the
 * store or a URL, and is cleared when shown; the store keeps only that it has not been shown yet. `name`
 * tells which value it is (e.g. `secret:<client_id>`).
 */
export async function setReveal(deps: DeveloperDeps, reply: FastifyReply, who: SignedIn, name: string, value: string): Promise<void> {
  const key = who.session.key;
  const once = randomBytes(16).toString('base64url');
  await deps.store.oidc.upsert(REVEAL_MODEL, once, {}, REVEAL_SECONDS);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', revealKey(deps.keyEncryptionKey), iv);
  cipher.setAAD(Buffer.from(`developer-reveal:${key}`));
  const exp = deps.clock.now().getTime() + REVEAL_SECONDS * 1000;
  const body = Buffer.concat([cipher.update(JSON.stringify({ n: name, v: value, exp, once }), 'utf8'), cipher.final()]);
  setDeveloperCookie(deps, reply, REVEAL_COOKIE, Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url'), REVEAL_SECONDS);
}

/** The value set for `name`, once (then cleared and used up); undefined when none, shown already or for another session. */
export async function takeReveal(deps: DeveloperDeps, req: FastifyRequest, reply: FastifyReply, who: SignedIn, name: string): Promise<string | undefined> {
  const sealed = cookieOf(req, REVEAL_COOKIE);
  if (!sealed) return undefined;
  const opened = open(deps, sealed, who.session.key);
  if (opened && opened.n !== name) return undefined; // another page's value: left for that page
  clearDeveloperCookie(deps, reply, REVEAL_COOKIE);
  if (!opened || opened.exp <= deps.clock.now().getTime()) return undefined;
  return await deps.store.oidc.consume(REVEAL_MODEL, opened.once) ? opened.v : undefined;
}

function open(deps: DeveloperDeps, sealed: string, sessionKey: string): { n: string; v: string; exp: number; once: string } | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 29) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', revealKey(deps.keyEncryptionKey), raw.subarray(0, 12), { authTagLength: 16 });
    decipher.setAAD(Buffer.from(`developer-reveal:${sessionKey}`));
    decipher.setAuthTag(raw.subarray(12, 28));
    const parsed = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as unknown;
    const p = parsed as { n?: unknown; v?: unknown; exp?: unknown; once?: unknown };
    return typeof p.n === 'string' && typeof p.v === 'string' && typeof p.exp === 'number' && typeof p.once === 'string'
      ? { n: p.n, v: p.v, exp: p.exp, once: p.once } : undefined;
  } catch {
    return undefined;
  }
}
