import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store, User } from '../../adapters/store.js';
import { stillValid } from '../accounts/account-status.js';
import { isNewSession } from './internals.js';
import type { ProviderHost } from './provider-host.js';

/** A signed-in browser: the user, and the session's public uid (what the dashboard's forms are bound to). */
export interface SignedIn {
  user: User;
  sessionUid: string;
}

/**
 * Who is signed in to Lanyard in this browser, for Lanyard's own pages (the dashboard, the classroom-device
 * page): the provider's session, through its public API, and the user it names, when the session still
 * counts for them (src/accounts/account-status.ts: the one rule for sessions and tokens).
 */
export async function signedInSession(host: ProviderHost, store: Store, req: FastifyRequest, reply: FastifyReply): Promise<SignedIn | undefined> {
  const { provider } = host;
  const session = await provider.Session.get(provider.createContext(req.raw, reply.raw));
  if (!session.accountId) return undefined;
  const user = await store.findUser(session.accountId);
  return user && stillValid(user, session.loginTs) ? { user, sessionUid: session.uid } : undefined;
}

export const signedInUser = async (host: ProviderHost, store: Store, req: FastifyRequest, reply: FastifyReply): Promise<User | undefined> =>
  (await signedInSession(host, store, req, reply))?.user;

/** Ends this browser's Lanyard session (the stored session and its cookie), as GET /oauth/logout does. */
export async function endBrowserSession(host: ProviderHost, req: FastifyRequest, reply: FastifyReply): Promise<string | undefined> {
  const { provider } = host;
  const ctx = provider.createContext(req.raw, reply.raw);
  const session = await provider.Session.get(ctx);
  if (session.accountId || !isNewSession(session)) await session.destroy();
  ctx.cookies.set(provider.cookieName('session'), null, { signed: true, httpOnly: true, sameSite: 'lax', secure: ctx.secure });
  return session.accountId;
}
