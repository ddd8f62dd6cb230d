import type { FastifyRequest } from 'fastify';
import type { User } from '../../../adapters/store.js';
import { adminOf, personOf, type SchoolAccess, schoolOf, type StaffMember } from '../access.js';
import type { SchoolDeps } from '../deps.js';
import { memberOf } from './auth.js';

/**
 * Who an API request acts as and on what, decided by access.ts as for the console's pages: the school of the
 * address (an admin-only route: a teacher gets the same 404 as anyone), and for a person's route, a person the
 * token's holder may act on. Every change through the API is recorded with `via: api`.
 */

export const VIA_API = { via: 'api' } as const;

export interface ApiActing {
  member: StaffMember;
  actor: User;
  school: SchoolAccess;
  via: 'api';
}

/** The token's holder in the school `org` (for `admin` routes: only as its admin). */
export function actingIn(req: FastifyRequest<{ Params: { org: string } }>, o: { admin?: boolean } = {}): ApiActing {
  const member = memberOf(req);
  const school = o.admin ? adminOf(member, req.params.org) : schoolOf(member, req.params.org);
  return { member, actor: member.user, school, ...VIA_API };
}

/** The same, and the person `user_id` they may act on (a teacher: their classes' pupils; an admin: anyone of the school). */
export async function actingOn(deps: SchoolDeps, req: FastifyRequest<{ Params: { org: string; user_id: string } }>, o: { admin?: boolean } = {}): Promise<ApiActing & { person: User }> {
  const acting = actingIn(req, o);
  return { ...acting, person: await personOf(deps.store, acting.school, req.params.user_id) };
}
