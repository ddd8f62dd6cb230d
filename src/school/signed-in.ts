import type { FastifyReply, FastifyRequest } from 'fastify';
import { type SchoolAccess, schoolOf, adminOf, needsSecondFactor, type StaffMember, staffMember } from './access.js';
import { area, type StaffSignedIn } from './area.js';
import type { SchoolDeps } from './deps.js';
import { TWO_STEP_PATH } from './second-step.js';

/** A console request by a signed-in member of staff: who, in which schools. */
export interface StaffRequest {
  who: StaffSignedIn;
  member: StaffMember;
}

/**
 * The signed-in member of staff with what they may do now (their roles are read on every request, so a role
 * withdrawn takes effect at once); undefined after answering (to the sign-in, as the area kit does). Someone
 * whose roles are all gone is signed out of the console. A school admin without two-step sign-in (a first
 * sign-in, or a teacher just made an admin) is sent to set it up: no other page opens for them until it is
 * on. Only the set-up's own pages pass `settingUp`.
 */
export async function staffRequest(deps: SchoolDeps, req: FastifyRequest, reply: FastifyReply, o: { settingUp?: boolean } = {}): Promise<StaffRequest | undefined> {
  const who = await area(deps).signedIn(req, reply);
  if (!who) return undefined;
  const member = await staffMember(deps.store, who.account.user);
  if (member.schools.length === 0) {
    await area(deps).sessions.end(req, reply);
    reply.redirect('/school/sign-in', 303);
    return undefined;
  }
  if (!o.settingUp && needsSecondFactor(member) && !(await deps.store.getStaffSecondFactor(member.user.id))) {
    reply.redirect(TWO_STEP_PATH, 303);
    return undefined;
  }
  return { who, member };
}

/** A signed-in member of staff and the school the address names (a 404 for a school not theirs). */
export async function schoolRequest(deps: SchoolDeps, req: FastifyRequest, reply: FastifyReply, slug: string, o: { admin?: boolean } = {}): Promise<(StaffRequest & { school: SchoolAccess }) | undefined> {
  const s = await staffRequest(deps, req, reply);
  if (!s) return undefined;
  return { ...s, school: o.admin ? adminOf(s.member, slug) : schoolOf(s.member, slug) };
}

/** The same for a form: the session's CSRF token is checked first. */
export async function schoolForm(deps: SchoolDeps, req: FastifyRequest, reply: FastifyReply, slug: string, o: { admin?: boolean } = {}): Promise<(StaffRequest & { school: SchoolAccess }) | undefined> {
  const s = await schoolRequest(deps, req, reply, slug, o);
  if (s) area(deps).checkCsrf(s.who, req.body);
  return s;
}
