import type { FastifyInstance } from 'fastify';
import { maySignIn } from '../accounts/account-status.js';
import { ensureAreaDevice } from '../web/area/area-device.js';
import { formField, sendHtml } from '../web/http.js';
import { M } from './account/account-messages.js';
import { staffMember } from './access.js';
import { area } from './area.js';
import type { SchoolDeps } from './deps.js';
import { SECOND_STEP_PATH, startConsoleSession } from './second-step.js';
import { staffAttemptPage } from './staff-attempt.js';
import { StaffSecondFactors } from './staff-second-factor.js';
import { secondStepPage, signInAgainPage } from './views/second-step-view.js';

/**
 * The second step of signing in to the console (docs/school-console.md → Signing in and your account): after
 * the sign-in screens, someone with two-step sign-in on enters the newest code from their app (accepted once:
 * a code already used is refused) or an unused recovery code (spent). Each try goes through the guessing
 * protection (staff-attempt.ts); five wrong codes end the half-done sign-in, as do five minutes; then the
 * sign-in starts again. Only a right code starts the console's session.
 */
export function secondStepRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const path = SECOND_STEP_PATH.slice('/school'.length);
  const pendings = area(deps).pendingSignIns;
  const factors = new StaffSecondFactors(deps);

  scope.get(path, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!(await pendings.current(req))) return sendHtml(reply, 400, signInAgainPage(M.secondStepExpired));
    ensureAreaDevice(deps.devices, area(deps).cookies, req, reply);
    return sendHtml(reply, 200, secondStepPage({ csrf: area(deps).preSignInCsrf(req, reply) }));
  });

  scope.post(path, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const form = (error: Parameters<typeof secondStepPage>[0]['error']) => secondStepPage({ csrf: area(deps).preSignInCsrf(req, reply), error });
    if (!area(deps).preSignInCsrfValid(req, req.body)) return sendHtml(reply, 403, form(M.preCsrfRefused));
    const pending = await pendings.current(req);
    const user = pending && (await deps.store.findUser(pending.accountId));
    const member = user && maySignIn(user) ? await staffMember(deps.store, user) : undefined;
    if (!pending || !member || member.schools.length === 0 || !(await factors.get(member.user.id))) {
      await pendings.end(reply, pending);
      return sendHtml(reply, 400, signInAgainPage(M.secondStepExpired));
    }
    const code = formField(req.body, 'code').trim();
    let triesLeft = true;
    const step = await staffAttemptPage(deps, req, reply, member.user, 'secondFactor', async () => {
      const found = await factors.verify(member, code);
      if (!found) triesLeft = await pendings.fail(pending);
      return found;
    }, (_status, message) => (triesLeft ? form(message) : signInAgainPage(M.secondStepTooManyWrong)));
    if (!step) return reply;
    await pendings.end(reply, pending);
    req.log.info({ event: 'school.signed_in', userId: member.user.id, secondStep: step }, 'member of staff signed in to the console');
    return startConsoleSession(deps, reply, member, pending.next, step);
  });
}
