import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DeveloperAccount } from '../../../adapters/store.js';
import type { DeveloperDeps } from '../deps.js';
import { DeveloperAccounts, type SecondFactor } from '../developer-accounts.js';
import { ensureDeveloperDevice } from '../developer-device.js';
import { attemptDeveloper, confirmFirstFactor } from './account-attempt.js';
import { M } from './account-messages.js';
import { safeNext } from './account-next.js';
import { formField, seeOther, sendHtml } from '../../web/http.js';
import { signInPage, verifyPage } from './account-sign-in-views.js';
import { area } from '../area.js';

/**
 * Sign-in (email and password, then the second step when the account has one) and sign-out. The password is
 * checked through the guessing protection; a right password on an account with TOTP leads to a half-done
 * sign-in (PendingSignIns), never a session, until the code is right.
 */
export function signInRoutes(scope: FastifyInstance, deps: DeveloperDeps): void {
  const accounts = new DeveloperAccounts(deps);
  const sessions = area(deps).sessions;
  const pendings = area(deps).pendingSignIns;
  const signupOpen = deps.signup === 'open';

  /** Starts the session (ending any other in this browser) and goes where the sign-in was headed. */
  const complete = async (req: FastifyRequest, reply: FastifyReply, account: DeveloperAccount, next: string, secondFactor: SecondFactor | undefined) => {
    await sessions.end(req, reply);
    await sessions.start(reply, account);
    await accounts.recordSignIn(account, secondFactor);
    req.log.info({ event: 'developer.signed_in', developerId: account.id, secondFactor: secondFactor ?? 'none' }, 'developer signed in');
    return seeOther(reply, next);
  };

  scope.get<{ Querystring: { next?: string } }>('/sign-in', async (req, reply) => {
    const next = safeNext(req.query.next);
    if (await sessions.current(req)) return seeOther(reply, next);
    ensureDeveloperDevice(deps, req, reply);
    const csrf = area(deps).preSignInCsrf(req, reply);
    return sendHtml(reply, 200, signInPage({ csrf, next, flash: area(deps).flash.take(req, reply), signupOpen }));
  });

  scope.post('/sign-in', async (req, reply) => {
    const next = safeNext(formField(req.body, 'next'));
    const email = formField(req.body, 'email').trim();
    const page = (status: number, error: Parameters<typeof signInPage>[0]['error']) =>
      sendHtml(reply, status, signInPage({ csrf: area(deps).preSignInCsrf(req, reply), next, email, error, signupOpen }));
    if (!area(deps).preSignInCsrfValid(req, req.body)) return page(403, M.preCsrfRefused);
    const password = formField(req.body, 'password');
    if (!email || !password) return page(400, M.wrongPassword);
    const account = await attemptDeveloper(deps, req, reply, {
      scope: 'password',
      email,
      verify: () => accounts.checkPassword(email, password),
      retry: (_status, error) => signInPage({ csrf: area(deps).preSignInCsrf(req, reply), next, email, error, signupOpen }),
      // With a second factor the password alone proves little: the device becomes known after the code.
      final: (a) => !a.totpSecret,
    });
    if (!account) return reply;
    if (!account.totpSecret) return complete(req, reply, account, next, undefined);
    await pendings.start(reply, account.id, next);
    return seeOther(reply, '/developer/sign-in/verify');
  });

  scope.get('/sign-in/verify', async (req, reply) => {
    if (!(await pendings.current(req))) {
      area(deps).flash.set(reply, M.verifyExpired);
      return seeOther(reply, '/developer/sign-in');
    }
    return sendHtml(reply, 200, verifyPage({ csrf: area(deps).preSignInCsrf(req, reply) }));
  });

  scope.post('/sign-in/verify', async (req, reply) => {
    if (!area(deps).preSignInCsrfValid(req, req.body)) {
      return sendHtml(reply, 403, verifyPage({ csrf: area(deps).preSignInCsrf(req, reply), error: M.preCsrfRefused }));
    }
    const pending = await pendings.current(req);
    const account = pending && (await accounts.find(pending.accountId));
    if (!pending || !account?.totpSecret) {
      await pendings.end(reply, pending);
      area(deps).flash.set(reply, M.verifyExpired);
      return seeOther(reply, '/developer/sign-in');
    }
    const code = formField(req.body, 'code').trim();
    let triesLeft = true;
    const secondFactor = await attemptDeveloper(deps, req, reply, {
      scope: 'secondFactor',
      email: account.email,
      verify: async () => {
        const found = await accounts.verifySecondFactor(account, code);
        if (!found) triesLeft = await pendings.fail(pending);
        return found;
      },
      // Out of tries: back to the password (the half-done sign-in is gone).
      retry: (_status, error) => (triesLeft
        ? verifyPage({ csrf: area(deps).preSignInCsrf(req, reply), error })
        : signInPage({ csrf: area(deps).preSignInCsrf(req, reply), next: pending.next, email: account.email, error: M.verifyTooManyWrong, signupOpen })),
      final: () => true,
    });
    if (!secondFactor) return reply;
    await confirmFirstFactor(deps, req, account.email);
    await pendings.end(reply, pending);
    return complete(req, reply, account, pending.next, secondFactor);
  });

  scope.post('/sign-out', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    await sessions.end(req, reply);
    req.log.info({ event: 'developer.signed_out', developerId: who.account.id }, 'developer signed out');
    area(deps).flash.set(reply, M.signedOut);
    return seeOther(reply, '/developer/sign-in');
  });
}
