import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store, User } from '../../adapters/store.js';
import type { ProviderHost } from './provider-host.js';

/**
 * Who is signed in to Lanyard in this browser, for Lanyard's own pages (the classroom-device page; the
 * dashboard later): the provider's session, through its public API, and the user it names — provided the
 * user may still sign in (not suspended, and the session began after the user's sessions were last ended).
 */
export async function signedInUser(host: ProviderHost, store: Store, req: FastifyRequest, reply: FastifyReply): Promise<User | undefined> {
  const { provider } = host;
  const ctx = provider.createContext(req.raw, reply.raw);
  const session = await provider.Session.get(ctx);
  if (!session.accountId) return undefined;
  const user = await store.findUser(session.accountId);
  if (!user || user.suspendedAt) return undefined;
  const validAfter = (user as { sessionsValidAfter?: number }).sessionsValidAfter;
  if (validAfter !== undefined && (session.loginTs ?? 0) * 1000 <= validAfter) return undefined;
  return user;
}
