import type { FastifyInstance } from 'fastify';
import { SIGN_IN_WAIT, verifyCredential } from '../../accounts/credential-hasher.js';
import { passwordProblem, setPassword } from '../../accounts/user-password.js';
import { ensureAreaDevice } from '../../web/area/area-device.js';
import { formField, seeOther, sendHtml } from '../../web/http.js';
import { area, safeNext, SIGN_IN_PATH } from '../area.js';
import type { SchoolDeps } from '../deps.js';
import { reissueConsoleSession } from '../second-step.js';
import { type StaffRequest, staffRequest } from '../signed-in.js';
import { staffAttemptPage } from '../staff-attempt.js';
import { recordStaffEvent } from '../staff-events.js';
import { M } from './account-messages.js';
import { type AccountFormErrors, ACCOUNT_PATH, accountPage } from './account-view.js';
import { confirmWith, hasPassword } from './confirmation.js';
import { SIGN_IN_AGAIN_PATH } from './confirm-field.js';

type AccountExtras = { flash?: string | undefined; errors?: AccountFormErrors | undefined };

/** The account page as it is now for this member of staff: read once, then drawn with a flash or a refused form. */
export async function accountRenderer(deps: SchoolDeps, s: StaffRequest): Promise<(o?: AccountExtras) => string> {
  const user = s.member.user;
  const [factor, password, confirm, tokens] = await Promise.all([
    deps.store.getStaffSecondFactor(user.id), hasPassword(deps, user), confirmWith(deps, s.who, 'second-factor'), deps.store.listStaffApiTokens(user.id),
  ]);
  return (o = {}) => accountPage({ who: s.who, member: s.member, factor, hasPassword: password, confirm, tokens: tokens.length, ...o });
}

/**
 * /school/account (docs/school-console.md → Signing in and your account): who they are and in which schools,
 * their password (for those who have one: the current one, checked through the guessing protection, then the
 * new one twice), two-step sign-in (two-step-routes.ts) and API tokens (token-routes.ts).
 */
export function accountRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const path = ACCOUNT_PATH.slice('/school'.length);

  scope.get(path, async (req, reply) => {
    const s = await staffRequest(deps, req, reply);
    if (!s) return reply;
    ensureAreaDevice(deps.devices, area(deps).cookies, req, reply);
    return sendHtml(reply, 200, (await accountRenderer(deps, s))({ flash: area(deps).flash.take(req, reply) }));
  });

  /**
   * A new password: the current one first (a stolen session cannot change it), the new one by the school users'
   * rule (src/accounts/user-password.ts), typed twice. Replacing the credential ends every session of the
   * person (the store's setCredential): this browser gets a new console session at once.
   */
  scope.post(`${path}/password`, async (req, reply) => {
    const s = await staffRequest(deps, req, reply);
    if (!s) return reply;
    area(deps).checkCsrf(s.who, req.body);
    const user = s.member.user;
    const current = formField(req.body, 'currentPassword');
    const next = formField(req.body, 'newPassword');
    const fields: AccountFormErrors['fields'] = [];
    if (!current) fields.push({ path: 'currentPassword', message: M.currentPasswordMissing });
    if (passwordProblem(next)) fields.push({ path: 'newPassword', message: M.newPasswordProblem });
    else if (formField(req.body, 'confirmPassword') !== next) fields.push({ path: 'confirmPassword', message: M.passwordsDiffer });
    const hash = await deps.store.getCredential(user.id, 'password');
    if (!hash) return seeOther(reply, ACCOUNT_PATH);
    const render = await accountRenderer(deps, s);
    if (fields.length) return sendHtml(reply, 400, render({ errors: { form: 'password', fields } }));
    const confirmed = await staffAttemptPage(deps, req, reply, user, 'password',
      async () => (await verifyCredential(hash, current, SIGN_IN_WAIT)) || undefined,
      (status, message) => render({ errors: status === 401
        ? { form: 'password', fields: [{ path: 'currentPassword', message: M.wrongPassword }] }
        : { form: 'password', fields: [], message } }));
    if (!confirmed) return reply;
    await setPassword(deps.store, user, next);
    recordStaffEvent(deps.audit, s.member, { kind: 'credential', action: 'password.changed' });
    req.log.info({ event: 'school.password_changed', userId: user.id }, 'member of staff changed their password');
    if (!(await reissueConsoleSession(deps, reply, s.who))) return seeOther(reply, SIGN_IN_PATH);
    area(deps).flash.set(reply, M.passwordChanged);
    return seeOther(reply, ACCOUNT_PATH);
  });

  /** Signing in again to confirm it is them (staff without a password): the console's session ends, then the sign-in, then `next`. */
  scope.post(SIGN_IN_AGAIN_PATH.slice('/school'.length), async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    const next = safeNext(formField(req.body, 'next'));
    // The sign-in always asks for the credential again (prompt=login): no need to end the Lanyard session too.
    await area(deps).sessions.end(req, reply);
    return seeOther(reply, `${SIGN_IN_PATH}?next=${encodeURIComponent(next)}`);
  });
}
