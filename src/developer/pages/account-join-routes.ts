import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DeveloperAccount } from '../../../adapters/store.js';
import { clientAddressKey } from '../../http/rate-limit-key.js';
import type { DeveloperDeps } from '../deps.js';
import { DeveloperAccounts, type NewAccount } from '../developer-accounts.js';
import { ConflictError, type FieldProblem } from '../errors.js';
import { Invitations } from '../invitations.js';
import { invitationPage, type JoinView, noticePage, signUpPage } from './account-join-views.js';
import { M } from './account-messages.js';
import { HOME, safeNext } from './account-next.js';
import { formField, seeOther, sendHtml } from '../../web/http.js';
import { area } from '../area.js';

/** Self sign-ups one network address may make in an hour (open sign-up has no email check to slow it). */
const SIGNUPS_PER_ADDRESS_PER_HOUR = 10;

/**
 * How developer accounts come to be (docs/developer-area.md): by invitation (`lanyard developers invite EMAIL`), or by
 * self sign-up when the operator set `developer_signup: "open"` (otherwise /developer/sign-up is a 404 that
 * says sign-up is by invitation). Either way the new developer is signed in and lands on their account page.
 */
export function joinRoutes(scope: FastifyInstance, deps: DeveloperDeps): void {
  const accounts = new DeveloperAccounts(deps);
  const sessions = area(deps).sessions;
  const invitations = new Invitations(deps);
  const open = deps.signup === 'open';

  /** The form's details and their problems (the confirmation included). */
  const read = (body: unknown, email: string): { input: NewAccount; fields: FieldProblem[] } => {
    const input = { email, displayName: formField(body, 'displayName'), password: formField(body, 'password') };
    const fields = accounts.problems(input);
    if (!fields.some((f) => f.path === 'password') && formField(body, 'confirm') !== input.password) {
      fields.push({ path: 'confirm', message: M.passwordsDiffer });
    }
    return { input, fields };
  };

  /** Signed in, to their account page, or to `next` (where sign-up was asked to go back to: a team invitation's link). */
  const welcome = async (req: FastifyRequest, reply: FastifyReply, account: DeveloperAccount, next = HOME) => {
    await sessions.end(req, reply);
    await sessions.start(reply, account);
    req.log.info({ event: 'developer.signed_in', developerId: account.id, secondFactor: 'none' }, 'developer signed in');
    area(deps).flash.set(reply, M.welcome(account.displayName));
    return seeOther(reply, next === HOME ? '/developer/account' : next);
  };

  scope.get<{ Querystring: { next?: string } }>('/sign-up', async (req, reply) => {
    if (!open) return sendHtml(reply, 404, noticePage(M.signUpClosedTitle, M.signUpClosed));
    return sendHtml(reply, 200, signUpPage({ csrf: area(deps).preSignInCsrf(req, reply), next: safeNext(req.query.next) }));
  });

  scope.post('/sign-up', async (req, reply) => {
    if (!open) return sendHtml(reply, 404, noticePage(M.signUpClosedTitle, M.signUpClosed));
    const email = formField(req.body, 'email');
    const next = safeNext(formField(req.body, 'next'));
    const page = (status: number, v: Omit<JoinView, 'csrf'>) => sendHtml(reply, status, signUpPage({ csrf: area(deps).preSignInCsrf(req, reply), email, next, ...v }));
    const displayName = formField(req.body, 'displayName');
    if (!area(deps).preSignInCsrfValid(req, req.body)) return page(403, { displayName, error: M.preCsrfRefused });
    const { input, fields } = read(req.body, email);
    if (fields.length) return page(400, { displayName, fields });
    const made = await deps.store.hitCounter(`developer-signup:${clientAddressKey(req)}`, 60 * 60);
    if (made.count > SIGNUPS_PER_ADDRESS_PER_HOUR) {
      reply.header('Retry-After', String(Math.max(1, Math.ceil((made.expiresAt - deps.clock.now().getTime()) / 1000))));
      return page(429, { displayName, error: M.signUpBusy });
    }
    let account: DeveloperAccount;
    try {
      account = await accounts.create(input, { how: 'sign-up' });
    } catch (err) {
      if (err instanceof ConflictError) return page(400, { displayName, fields: [{ path: 'email', message: M.emailTaken }] });
      throw err;
    }
    return welcome(req, reply, account, next);
  });

  scope.get<{ Params: { token: string } }>('/invitations/:token', async (req, reply) => {
    const invitation = await invitations.find(req.params.token);
    if (!invitation) return sendHtml(reply, 404, noticePage(M.invitationGoneTitle, M.invitationGone));
    if (invitation.consumed) return sendHtml(reply, 410, noticePage(M.invitationGoneTitle, M.invitationUsed));
    if (await accounts.findByEmail(invitation.email)) return sendHtml(reply, 409, noticePage(M.invitationGoneTitle, M.emailTaken));
    return sendHtml(reply, 200, invitationPage({ csrf: area(deps).preSignInCsrf(req, reply), token: req.params.token, email: invitation.email }));
  });

  scope.post<{ Params: { token: string } }>('/invitations/:token', async (req, reply) => {
    const { token } = req.params;
    const invitation = await invitations.find(token);
    if (!invitation) return sendHtml(reply, 404, noticePage(M.invitationGoneTitle, M.invitationGone));
    if (invitation.consumed) return sendHtml(reply, 410, noticePage(M.invitationGoneTitle, M.invitationUsed));
    const displayName = formField(req.body, 'displayName');
    const page = (status: number, v: Omit<JoinView, 'csrf'>) =>
      sendHtml(reply, status, invitationPage({ csrf: area(deps).preSignInCsrf(req, reply), token, email: invitation.email, displayName, ...v }));
    if (!area(deps).preSignInCsrfValid(req, req.body)) return page(403, { error: M.preCsrfRefused });
    const { input, fields } = read(req.body, invitation.email);
    if (fields.length) return page(400, { fields });
    // Used up before the account is made: two tabs submitting at once make one account, not two.
    if (!(await invitations.consume(token))) return sendHtml(reply, 410, noticePage(M.invitationGoneTitle, M.invitationUsed));
    let account: DeveloperAccount;
    try {
      account = await accounts.create(input, { how: 'invitation', invitedBy: invitation.invitedByName });
    } catch (err) {
      if (err instanceof ConflictError) return sendHtml(reply, 409, noticePage(M.invitationGoneTitle, M.emailTaken));
      throw err;
    }
    req.log.info({ event: 'developer.invitation_accepted', developerId: account.id }, 'developer invitation accepted');
    return welcome(req, reply, account);
  });
}
