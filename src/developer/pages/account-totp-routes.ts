import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DeveloperDeps } from '../deps.js';
import { DeveloperAccounts } from '../developer-accounts.js';
import { ValidationError } from '../errors.js';
import { totpQrDataUrl, totpUri } from '../../accounts/totp.js';
import { M } from './account-messages.js';
import { formField, seeOther, sendHtml } from '../../web/http.js';
import { confirmPassword, reissueSession } from './account-settings-routes.js';
import { type AccountFormErrors, accountPage } from './account-settings-views.js';
import { recoveryCodesPage, totpSetupPage } from './account-totp-views.js';
import { type SignedIn } from './signed-in.js';
import { area } from '../area.js';

const RECOVERY_REVEAL = 'recovery-codes';

/**
 * The second factor: set up (a new secret shown as a QR code and as text, kept aside until a right code shows
 * the app has it, after the password), turned off (with the password), and the recovery codes (with the password) (made on set-up and on request,
 * shown once through the reveal cookie).
 */
export function totpRoutes(scope: FastifyInstance, deps: DeveloperDeps): void {
  const accounts = new DeveloperAccounts(deps);
  const setups = area(deps).totpSetups;
  const issuerName = `Lanyard (${new URL(deps.issuer).host})`;

  const setupPage = async (who: SignedIn, secret: string, error?: string) =>
    totpSetupPage({ who, secret, qrDataUrl: await totpQrDataUrl(totpUri(secret, { issuer: issuerName, account: who.account.email })), error });

  /**
   * The password, before the second step is set up, turned off or its recovery codes replaced: otherwise a
   * stolen session could put its own authenticator on the account and lock the owner out. Returns the
   * account; undefined when the request was answered (a missing or wrong password, a wait).
   */
  const passwordFirst = async (req: FastifyRequest, reply: FastifyReply, who: SignedIn, form: 'totp-setup' | 'recovery-codes' | 'totp-disable', name: string) => {
    const history = await accounts.history(who.account);
    const page = (errors: AccountFormErrors) => accountPage({ who, history, errors });
    const password = formField(req.body, name);
    if (!password) {
      sendHtml(reply, 400, page({ form, fields: [{ path: name, message: 'Enter your password.' }] }));
      return undefined;
    }
    return confirmPassword(deps, req, reply, who, password, (_s, errors) => page(errors), form, name);
  };

  scope.post('/account/totp/setup', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    if (who.account.totpSecret) return seeOther(reply, '/developer/account');
    if (!(await passwordFirst(req, reply, who, 'totp-setup', 'setupPassword'))) return reply;
    await setups.begin(who.session.key, who.account.id);
    return seeOther(reply, '/developer/account/totp');
  });

  scope.get('/account/totp', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    const secret = who.account.totpSecret ? undefined : await setups.current(who.session.key, who.account.id);
    if (!secret) {
      if (!who.account.totpSecret) area(deps).flash.set(reply, M.totpSetupExpired);
      return seeOther(reply, '/developer/account');
    }
    return sendHtml(reply, 200, await setupPage(who, secret));
  });

  scope.post('/account/totp', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    const key = who.session.key;
    const secret = who.account.totpSecret ? undefined : await setups.current(key, who.account.id);
    if (!secret) {
      if (!who.account.totpSecret) area(deps).flash.set(reply, M.totpSetupExpired);
      return seeOther(reply, '/developer/account');
    }
    let enabled;
    try {
      enabled = await accounts.enableTotp(who.account, secret, formField(req.body, 'code'));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      return sendHtml(reply, 400, await setupPage(who, secret, err.fields[0]?.message));
    }
    await setups.end(key);
    const now = await reissueSession(deps, reply, who, enabled.account);
    await area(deps).reveals.set(reply, now.session.key, RECOVERY_REVEAL, enabled.recoveryCodes.join('\n'));
    area(deps).flash.set(reply, M.totpEnabled);
    return seeOther(reply, '/developer/account/recovery-codes');
  });

  scope.get('/account/recovery-codes', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    const codes = await area(deps).reveals.take(req, reply, who.session.key, RECOVERY_REVEAL);
    if (!codes) {
      area(deps).flash.set(reply, M.recoveryGone);
      return seeOther(reply, '/developer/account');
    }
    return sendHtml(reply, 200, recoveryCodesPage(who, codes.split('\n')));
  });

  scope.post('/account/recovery-codes', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    if (!who.account.totpSecret) return seeOther(reply, '/developer/account');
    if (!(await passwordFirst(req, reply, who, 'recovery-codes', 'recoveryPassword'))) return reply;
    const { recoveryCodes } = await accounts.regenerateRecoveryCodes(who.account);
    await area(deps).reveals.set(reply, who.session.key, RECOVERY_REVEAL, recoveryCodes.join('\n'));
    return seeOther(reply, '/developer/account/recovery-codes');
  });

  scope.post('/account/totp/disable', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    if (!who.account.totpSecret) return seeOther(reply, '/developer/account');
    const account = await passwordFirst(req, reply, who, 'totp-disable', 'password');
    if (!account) return reply;
    const updated = await accounts.disableTotp(account);
    await reissueSession(deps, reply, who, updated);
    area(deps).flash.set(reply, M.totpDisabled);
    return seeOther(reply, '/developer/account');
  });
}
