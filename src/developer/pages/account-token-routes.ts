import type { FastifyInstance } from 'fastify';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_LABEL_MAX, API_TOKEN_MAX_DAYS, ApiTokens } from '../api-tokens.js';
import type { DeveloperDeps } from '../deps.js';
import { ConflictError, type FieldProblem, NotFoundError, ValidationError } from '../errors.js';
import { M } from './account-messages.js';
import { formField, seeOther, sendHtml } from '../../web/http.js';
import { confirmationField, tokenRevokePage, tokensPage, type TokensView } from './account-token-views.js';
import { attemptDeveloper } from './account-attempt.js';
import { DeveloperAccounts } from '../developer-accounts.js';
import { reconfirmation } from '../reconfirmation.js';
import { type SignedIn } from './signed-in.js';
import { area } from '../area.js';

const TOKEN_REVEAL = 'api-token';

/** The service's field problems under the form's field names. */
const pageFields = (err: ValidationError): FieldProblem[] =>
  err.fields.map((f) => ({ path: f.path.replace(/^\//, '').replace('expires_in_days', 'expiresInDays'), message: f.message }));

/**
 * Personal API tokens (docs/developer-area.md): list, create (with the password or a fresh code again; shown
 * once, with a copy button), revoke (after a confirmation page).
 */
export function tokenRoutes(scope: FastifyInstance, deps: DeveloperDeps): void {
  const tokens = new ApiTokens(deps);
  const accounts = new DeveloperAccounts(deps);

  const render = async (who: SignedIn, o: Partial<TokensView> = {}) =>
    tokensPage({ who, tokens: await tokens.list(who.account.id), now: deps.clock.now(), ...o });

  scope.get('/account/tokens', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    const created = await area(deps).reveals.take(req, reply, who.session.key, TOKEN_REVEAL);
    return sendHtml(reply, 200, await render(who, { created, flash: area(deps).flash.take(req, reply) }));
  });

  scope.post('/account/tokens', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    const label = formField(req.body, 'label').trim();
    const days = formField(req.body, 'expiresInDays').trim() || String(API_TOKEN_DEFAULT_DAYS);
    const fields: FieldProblem[] = [];
    if (!label || [...label].length > API_TOKEN_LABEL_MAX) fields.push({ path: 'label', message: M.tokenLabelProblem });
    const n = Number(days);
    if (!/^\d+$/.test(days) || n < 1 || n > API_TOKEN_MAX_DAYS) fields.push({ path: 'expiresInDays', message: M.tokenDaysProblem });
    // A token acts as the developer: making one asks for the password again, or a fresh code when two-step
    // sign-in is on, checked with the sign-in's guessing protection (docs/developer-area.md → Getting an account).
    const confirmWith = confirmationField(who);
    const typed = formField(req.body, confirmWith);
    if (!typed.trim()) fields.push({ path: confirmWith, message: confirmWith === 'code' ? M.tokenCodeMissing : M.tokenPasswordMissing });
    const again = async (problems: FieldProblem[]) => sendHtml(reply, 400, await render(who, { fields: problems, label, days }));
    if (!fields.length) {
      try {
        tokens.check({ label, expiresInDays: n }); // the service's own rules (one line of text), before a try is spent
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        fields.push(...pageFields(err));
      }
    }
    if (fields.length) return again(fields);
    const view = { who, tokens: await tokens.list(who.account.id), now: deps.clock.now(), label, days };
    const confirmed = await attemptDeveloper(deps, req, reply, {
      ...reconfirmation(accounts, who.account).attempt(typed),
      retry: (status, message) => tokensPage(status === 401
        ? { ...view, fields: [{ path: confirmWith, message: confirmWith === 'code' ? M.tokenCodeWrong : M.tokenPasswordWrong }] }
        : { ...view, message }),
    });
    if (!confirmed) {
      req.log.info({ event: 'developer.token_refused_confirmation', developerId: who.account.id, with: confirmWith }, 'API token not created: password or code not confirmed');
      return reply;
    }
    let token: string;
    try {
      ({ token } = await tokens.create(who.account, { label, expiresInDays: n }));
    } catch (err) {
      // Too many active tokens: said on the form, which stays filled in.
      if (err instanceof ConflictError) return again([{ path: 'label', message: err.message }]);
      if (!(err instanceof ValidationError)) throw err;
      return again(pageFields(err));
    }
    await area(deps).reveals.set(reply, who.session.key, TOKEN_REVEAL, token);
    return seeOther(reply, '/developer/account/tokens');
  });

  /** One of the developer's own tokens, or 404 (another's, revoked, or none). */
  const ownToken = async (who: SignedIn, id: string) => {
    const token = (await tokens.list(who.account.id)).find((t) => t.id === id);
    if (!token) throw new NotFoundError('This token does not exist (it may have been revoked already).');
    return token;
  };

  scope.get<{ Params: { id: string } }>('/account/tokens/:id/revoke', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    return sendHtml(reply, 200, tokenRevokePage(who, await ownToken(who, req.params.id)));
  });

  scope.post<{ Params: { id: string } }>('/account/tokens/:id/revoke', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    const token = await ownToken(who, req.params.id);
    await tokens.revoke(who.account, token.id);
    area(deps).flash.set(reply, M.tokenRevoked(token.label));
    return seeOther(reply, '/developer/account/tokens');
  });
}
