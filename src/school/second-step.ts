import type { FastifyReply, FastifyRequest } from 'fastify';
import { seeOther } from '../web/http.js';
import { needsSecondFactor, type StaffMember } from './access.js';
import { area, staffAccount, type StaffSignedIn } from './area.js';
import type { SchoolDeps } from './deps.js';
import type { SecondStep } from './staff-second-factor.js';
import { recordStaffEvent } from './staff-events.js';

export const SECOND_STEP_PATH = '/school/sign-in/second-step';
/** Where a school admin without two-step sign-in is sent before any console page opens. */
export const TWO_STEP_PATH = '/school/account/two-step';

/**
 * After the sign-in screens (docs/school-console.md → Signing in and your account): someone with two-step
 * sign-in on has a half-done sign-in (the area kit's PendingSignIns: 5 minutes, 5 tries), never a session,
 * until their code is right (second-step-routes.ts). Anyone else gets the console's session at once: a
 * teacher goes on to `next`; a school admin, who must use two-step sign-in, to setting it up, and no console
 * page opens for them before it is on (signed-in.ts).
 */
export async function afterFirstStep(deps: SchoolDeps, _req: FastifyRequest, reply: FastifyReply, member: StaffMember, next: string): Promise<FastifyReply> {
  if (await deps.store.getStaffSecondFactor(member.user.id)) {
    await area(deps).pendingSignIns.start(reply, member.user.id, next);
    return seeOther(reply, SECOND_STEP_PATH);
  }
  return startConsoleSession(deps, reply, member, needsSecondFactor(member) ? TWO_STEP_PATH : next);
}

/** The console's session for the member of staff, recorded in their schools' audit trails; then `next`. */
export async function startConsoleSession(deps: SchoolDeps, reply: FastifyReply, member: StaffMember, next: string, secondStep?: SecondStep): Promise<FastifyReply> {
  const account = staffAccount(member.user);
  if (!account) return seeOther(reply, '/school/sign-in');
  await area(deps).sessions.start(reply, account);
  recordStaffEvent(deps.audit, member, { kind: 'console', action: 'console.signed_in', detail: { second_step: secondStep ?? 'none' } });
  return seeOther(reply, next);
}

/**
 * After a change that ended every session of the person (their password, two-step sign-in turned on or off),
 * this browser gets a new console session at once: the member of staff who made the change stays signed in,
 * everyone else is out. The 8-hour limit still counts from the original sign-in. Undefined when the person may
 * no longer sign in.
 */
export async function reissueConsoleSession(deps: SchoolDeps, reply: FastifyReply, who: StaffSignedIn): Promise<StaffSignedIn | undefined> {
  const account = staffAccount(await deps.store.findUser(who.account.id));
  if (!account) return undefined;
  const session = await area(deps).sessions.start(reply, account, who.session.authAt);
  return area(deps).signedInAs(account, session);
}
