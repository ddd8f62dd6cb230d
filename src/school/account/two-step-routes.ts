import type { FastifyInstance } from 'fastify';
import { totpQrDataUrl, totpUri } from '../../accounts/totp.js';
import { formField, seeOther, sendHtml } from '../../web/http.js';
import { needsSecondFactor } from '../access.js';
import { area, SIGN_IN_PATH, type StaffSignedIn } from '../area.js';
import type { SchoolDeps } from '../deps.js';
import { reissueConsoleSession, TWO_STEP_PATH } from '../second-step.js';
import { type StaffRequest, staffRequest } from '../signed-in.js';
import { StaffSecondFactors } from '../staff-second-factor.js';
import { M } from './account-messages.js';
import { accountRenderer } from './account-routes.js';
import { ACCOUNT_PATH, type AccountFormErrors } from './account-view.js';
import { confirmIdentity, confirmWith } from './confirmation.js';
import { recoveryCodesPage, twoStepIntroPage, twoStepSetupPage } from './two-step-views.js';

const RECOVERY_REVEAL = 'recovery-codes';
const RECOVERY_PATH = `${ACCOUNT_PATH}/recovery-codes`;

/**
 * Two-step sign-in for staff (docs/school-console.md → Signing in and your account): set up (after a recent
 * sign-in or the password: a stolen session must not put its own authenticator on the account), with the new
 * secret shown as a QR code and as text and kept aside (the area kit's TotpSetups) until a right code shows
 * the app has it; then ten recovery codes, shown once (the kit's Reveals). New recovery codes and turning it
 * off (teachers only: a school admin must keep it) ask for the password or a fresh code. Turning it on or off
 * ends every session of the person; this browser gets a new console session at once. A school admin
 * without it reaches only these pages (signed-in.ts).
 */
export function twoStepRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const factors = new StaffSecondFactors(deps);
  const setups = area(deps).totpSetups;
  const path = TWO_STEP_PATH.slice('/school'.length);
  const issuer = `Lanyard school console (${new URL(deps.issuer).host})`;

  const setupPage = async (who: StaffSignedIn, secret: string, required: boolean, error?: string) => twoStepSetupPage({
    who, secret, required, error, qrDataUrl: await totpQrDataUrl(totpUri(secret, { issuer, account: who.account.user.email ?? who.account.user.username })),
  });
  /** The set-up pages: for a member of staff whose two-step sign-in is off; undefined once answered. */
  const settingUp = async (req: Parameters<typeof staffRequest>[1], reply: Parameters<typeof staffRequest>[2]) => {
    const s = await staffRequest(deps, req, reply, { settingUp: true });
    if (!s) return undefined;
    if (await factors.get(s.member.user.id)) {
      seeOther(reply, ACCOUNT_PATH);
      return undefined;
    }
    return s;
  };

  scope.get(path, async (req, reply) => {
    const s = await settingUp(req, reply);
    if (!s) return reply;
    const required = needsSecondFactor(s.member);
    const secret = await setups.current(s.who.session.key, s.member.user.id);
    if (secret) return sendHtml(reply, 200, await setupPage(s.who, secret, required));
    return sendHtml(reply, 200, twoStepIntroPage({ who: s.who, required, confirm: await confirmWith(deps, s.who, 'set-up') }));
  });

  scope.post(`${path}/start`, async (req, reply) => {
    const s = await settingUp(req, reply);
    if (!s) return reply;
    area(deps).checkCsrf(s.who, req.body);
    const how = await confirmWith(deps, s.who, 'set-up');
    const typed = formField(req.body, 'confirm');
    const intro = (error?: string, message?: Parameters<typeof twoStepIntroPage>[0]['message']) =>
      twoStepIntroPage({ who: s.who, required: needsSecondFactor(s.member), confirm: how, error, message });
    if (how !== 'recent' && how !== 'sign-in-again' && !typed) return sendHtml(reply, 400, intro(M.confirmMissing));
    const confirmed = await confirmIdentity(deps, req, reply, s.who, how, typed,
      (status, message) => (status === 401 ? intro(M.wrongPassword) : intro(undefined, message)));
    if (confirmed === undefined) return reply;
    if (!confirmed) return seeOther(reply, TWO_STEP_PATH);
    await setups.begin(s.who.session.key, s.member.user.id);
    return seeOther(reply, TWO_STEP_PATH);
  });

  scope.post(path, async (req, reply) => {
    const s = await settingUp(req, reply);
    if (!s) return reply;
    area(deps).checkCsrf(s.who, req.body);
    const secret = await setups.current(s.who.session.key, s.member.user.id);
    if (!secret) {
      area(deps).flash.set(reply, M.setupExpired);
      return seeOther(reply, TWO_STEP_PATH);
    }
    const codes = await factors.enable(s.member, secret, formField(req.body, 'code'));
    if (!codes) return sendHtml(reply, 400, await setupPage(s.who, secret, needsSecondFactor(s.member), M.setupWrongCode));
    await setups.end(s.who.session.key);
    req.log.info({ event: 'school.two_step_enabled', userId: s.member.user.id }, 'member of staff turned two-step sign-in on');
    // Every session of the person ended (staff-second-factor.ts): this browser carries on in a new one.
    const now = await reissueConsoleSession(deps, reply, s.who);
    if (!now) return seeOther(reply, SIGN_IN_PATH);
    await area(deps).reveals.set(reply, now.session.key, RECOVERY_REVEAL, codes.join('\n'));
    area(deps).flash.set(reply, M.twoStepEnabled);
    return seeOther(reply, RECOVERY_PATH);
  });

  scope.get(RECOVERY_PATH.slice('/school'.length), async (req, reply) => {
    const s = await staffRequest(deps, req, reply);
    if (!s) return reply;
    const codes = await area(deps).reveals.take(req, reply, s.who.session.key, RECOVERY_REVEAL);
    if (!codes) {
      area(deps).flash.set(reply, M.recoveryGone);
      return seeOther(reply, ACCOUNT_PATH);
    }
    return sendHtml(reply, 200, recoveryCodesPage(s.who, codes.split('\n'), area(deps).flash.take(req, reply)));
  });

  /** A change to two-step sign-in that asks who it is first: true when confirmed, else answered. */
  const confirmed = async (s: StaffRequest, req: Parameters<typeof staffRequest>[1], reply: Parameters<typeof staffRequest>[2], form: AccountFormErrors['form']) => {
    const how = await confirmWith(deps, s.who, 'second-factor');
    const typed = formField(req.body, 'confirm');
    const render = await accountRenderer(deps, s);
    const refuse = (errors: AccountFormErrors) => render({ errors });
    if (!typed.trim()) {
      sendHtml(reply, 400, refuse({ form, fields: [{ path: 'confirm', message: M.confirmMissing }] }));
      return false;
    }
    const ok = await confirmIdentity(deps, req, reply, s.who, how, typed, (status, message) => refuse(status === 401
      ? { form, fields: [{ path: 'confirm', message: how === 'code' ? M.confirmWrongCode : M.confirmWrong }] }
      : { form, fields: [], message }));
    return ok === true;
  };

  scope.post(RECOVERY_PATH.slice('/school'.length), async (req, reply) => {
    const s = await staffRequest(deps, req, reply);
    if (!s) return reply;
    area(deps).checkCsrf(s.who, req.body);
    if (!(await factors.get(s.member.user.id))) return seeOther(reply, ACCOUNT_PATH);
    if (!(await confirmed(s, req, reply, 'recovery-codes'))) return reply;
    const codes = await factors.replaceRecoveryCodes(s.member);
    if (!codes) return seeOther(reply, ACCOUNT_PATH);
    req.log.info({ event: 'school.recovery_codes_replaced', userId: s.member.user.id }, 'member of staff made new recovery codes');
    await area(deps).reveals.set(reply, s.who.session.key, RECOVERY_REVEAL, codes.join('\n'));
    return seeOther(reply, RECOVERY_PATH);
  });

  scope.post(`${path}/off`, async (req, reply) => {
    const s = await staffRequest(deps, req, reply);
    if (!s) return reply;
    area(deps).checkCsrf(s.who, req.body);
    if (!(await factors.get(s.member.user.id))) return seeOther(reply, ACCOUNT_PATH);
    if (needsSecondFactor(s.member)) {
      area(deps).flash.set(reply, M.twoStepAdminsKeep);
      return seeOther(reply, ACCOUNT_PATH);
    }
    if (!(await confirmed(s, req, reply, 'two-step-off'))) return reply;
    await factors.disable(s.member);
    req.log.info({ event: 'school.two_step_disabled', userId: s.member.user.id }, 'member of staff turned two-step sign-in off');
    if (!(await reissueConsoleSession(deps, reply, s.who))) return seeOther(reply, SIGN_IN_PATH);
    area(deps).flash.set(reply, M.twoStepDisabled);
    return seeOther(reply, ACCOUNT_PATH);
  });
}
