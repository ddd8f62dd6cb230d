import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Organisation } from '../adapters/store.js';
import { classLinkCookie, clearClassLinkCookie } from '../src/accounts/class-links.js';
import type { InteractionDeps } from './context.js';

/** The class whose name tiles this browser may see, and what lets it. */
export interface ClassContext {
  classId: string;
  /** A trusted classroom device set to the class, or a live class link the browser opened. */
  via: 'device' | 'link';
}

/**
 * Which class's name tiles this browser may see at `organisation`'s sign-in (docs/childrens-sign-in.md → Class
 * sign-in): the class of the trusted classroom device it is (the device active, of this school), else the class
 * of the class link it opened (its signed cookie naming a link of this school that the store says is live
 * now: not expired, not revoked). Nothing otherwise: no device, a device of another school or set to no class,
 * a link of another school, expired or revoked, a forged cookie. Asked again on every screen that shows a name.
 * A link of this school that is over (expired, revoked, gone) is forgotten: its cookie is cleared with `reply`.
 */
export async function classContext(
  deps: Pick<InteractionDeps, 'devices' | 'classLinks' | 'cookieKeys'>, req: FastifyRequest, organisation: Organisation, reply: FastifyReply,
): Promise<ClassContext | undefined> {
  const device = await deps.devices.trusted(req, organisation.id);
  if (device?.classId) return { classId: device.classId, via: 'device' };
  const claimed = classLinkCookie(deps.cookieKeys, req);
  if (!claimed || claimed.organisationId !== organisation.id) return undefined;
  const link = await deps.classLinks.live(organisation.id, claimed.id);
  if (link?.organisationId === organisation.id) return { classId: link.classId, via: 'link' };
  clearClassLinkCookie(req, reply);
  return undefined;
}
