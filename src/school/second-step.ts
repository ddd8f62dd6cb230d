import type { FastifyReply, FastifyRequest } from 'fastify';
import { seeOther } from '../web/http.js';
import type { StaffMember } from './access.js';
import { area, staffAccount } from './area.js';
import type { SchoolDeps } from './deps.js';
import { fullName } from './names.js';

/**
 * After the sign-in screens: the console's session, once the second step is taken (docs/school-console.md →
 * Signing in). Starts the console's session and goes on to `next`.
 */
export async function afterFirstStep(deps: SchoolDeps, _req: FastifyRequest, reply: FastifyReply, member: StaffMember, next: string): Promise<FastifyReply> {
  return startConsoleSession(deps, reply, member, next);
}

/** The console's session for the member of staff, recorded in their school's audit trail; then `next`. */
export async function startConsoleSession(deps: SchoolDeps, reply: FastifyReply, member: StaffMember, next: string): Promise<FastifyReply> {
  const account = staffAccount(member.user);
  if (!account) return seeOther(reply, '/school/sign-in');
  await area(deps).sessions.start(reply, account);
  for (const school of member.schools) {
    deps.audit.record({
      organisationId: school.organisation.id, kind: 'console', action: 'console.signed_in',
      actorId: member.user.id, actorName: fullName(member.user), subjectId: member.user.id,
    });
  }
  return seeOther(reply, next);
}
