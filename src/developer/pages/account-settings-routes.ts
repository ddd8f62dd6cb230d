import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DeveloperAccount } from '../../../adapters/store.js';
import type { DeveloperDeps } from '../deps.js';
import { DeveloperAccounts } from '../developer-accounts.js';
import { passwordProblem } from '../developer-password.js';
import { type FieldProblem, ValidationError } from '../errors.js';
import { attemptDeveloper } from './account-attempt.js';
import { M } from './account-messages.js';
import { formField, seeOther, sendHtml } from '../../web/http.js';
import { accountPage, type AccountFormErrors } from './account-settings-views.js';
import { type SignedIn } from './signed-in.js';
import { area } from '../area.js';

/**
 * After a change that ends every session of the account (password, second factor), this browser gets a new
 * one at once: the developer who made the change stays signed in, everyone else is out. The 12-hour limit
 * still counts from the original sign-in.
 */
export async function reissueSession(deps: DeveloperDeps, reply: FastifyReply, who: SignedIn, updated: DeveloperAccount): Promise<SignedIn> {
  const session = await area(deps).sessions.start(reply, updated, who.session.authAt);
  return area(deps).signedInAs(updated, session);
}

/**
 * Checks the signed-in developer's password again (to change it or to turn the second factor off) through
 * the same guessing protection as sign-in: a stolen session cannot guess it freely. Undefined once answered.
 */
export async function confirmPassword(
  deps: DeveloperDeps, req: FastifyRequest, reply: FastifyReply, who: SignedIn, password: string,
  page: (status: number, errors: AccountFormErrors) => string, form: AccountFormErrors['form'], fieldName: string,
): Promise<DeveloperAccount | undefined> {
  const accounts = new DeveloperAccounts(deps);
  return attemptDeveloper(deps, req, reply, {
    scope: 'password',
    email: who.account.email,
    verify: async () => ((await accounts.passwordMatches(who.account, password)) ? who.account : undefined),
    retry: (status, message) => page(status, status === 401
      ? { form, fields: [{ path: fieldName, message: M.currentPasswordWrong }] }
      : { form, fields: [], message }),
    final: () => true,
  });
}

/** The account page: name, password, second factor, sessions, history. */
export function settingsRoutes(scope: FastifyInstance, deps: DeveloperDeps): void {
  const accounts = new DeveloperAccounts(deps);
  const sessions = area(deps).sessions;

  const render = async (who: SignedIn, o: { flash?: string | undefined; errors?: AccountFormErrors; displayName?: string } = {}) =>
    accountPage({ who, history: await accounts.history(who.account), ...o });

  scope.get('/account', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    return sendHtml(reply, 200, await render(who, { flash: area(deps).flash.take(req, reply) }));
  });

  scope.post('/account/name', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    const displayName = formField(req.body, 'displayName');
    try {
      await accounts.rename(who.account, displayName);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      return sendHtml(reply, 400, await render(who, { errors: { form: 'name', fields: err.fields }, displayName }));
    }
    area(deps).flash.set(reply, M.renamed);
    return seeOther(reply, '/developer/account');
  });

  scope.post('/account/password', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    const current = formField(req.body, 'currentPassword');
    const next = formField(req.body, 'newPassword');
    const fields: FieldProblem[] = [];
    if (!current) fields.push({ path: 'currentPassword', message: 'Enter your current password.' });
    const problem = passwordProblem(next, who.account);
    if (problem) fields.push({ path: 'newPassword', message: problem });
    else if (formField(req.body, 'confirmPassword') !== next) fields.push({ path: 'confirmPassword', message: M.passwordsDiffer });
    if (fields.length) return sendHtml(reply, 400, await render(who, { errors: { form: 'password', fields } }));
    const history = await accounts.history(who.account);
    const account = await confirmPassword(deps, req, reply, who, current,
      (_status, errors) => accountPage({ who, history, errors }), 'password', 'currentPassword');
    if (!account) return reply;
    const updated = await accounts.changePassword(account, next);
    await reissueSession(deps, reply, who, updated);
    area(deps).flash.set(reply, M.passwordChanged);
    return seeOther(reply, '/developer/account');
  });

  scope.post('/account/sign-out-everywhere', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    await accounts.endSessions(who.account);
    sessions.forget(reply);
    area(deps).flash.set(reply, M.signedOutEverywhere);
    return seeOther(reply, '/developer/sign-in');
  });
}
