import type { FastifyInstance } from 'fastify';
import { PERSONAL_TOKEN_DEFAULT_DAYS, personalTokenLabelProblem, validPersonalTokenDays } from '../../accounts/personal-tokens.js';
import { formField, seeOther, sendHtml } from '../../web/http.js';
import { area } from '../area.js';
import type { SchoolDeps } from '../deps.js';
import { NotInSchoolError } from '../errors.js';
import { type StaffRequest, staffRequest } from '../signed-in.js';
import { STAFF_TOKEN_MAX_ACTIVE, StaffApiTokens } from '../staff-api-tokens.js';
import { M } from './account-messages.js';
import { confirmIdentity, confirmWith } from './confirmation.js';
import { TOKENS_PATH, tokenRevokePage, tokensPage, type TokensView } from './token-views.js';

const TOKEN_REVEAL = 'api-token';

/**
 * Staff API tokens for /school/api (docs/school-console.md → Signing in and your account): listed (with when
 * each stops working), made (a label and 1 to 90 days; asking who it is again: a fresh code with two-step
 * sign-in on, else the password; shown once), revoked after a confirmation page.
 */
export function tokenRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const tokens = new StaffApiTokens(deps);
  const path = TOKENS_PATH.slice('/school'.length);

  /** The page's data: each token with the moment it stops working as its expiry. */
  const view = async (s: StaffRequest, o: Partial<TokensView> = {}): Promise<TokensView> => ({
    who: s.who,
    tokens: (await tokens.list(s.member.user.id)).map((t) => ({ ...t, expiresAt: new Date(tokens.endsAt(t, s.member.user)).toISOString() })),
    now: deps.clock.now(),
    confirm: await confirmWith(deps, s.who, 'token'),
    ...o,
  });

  scope.get(path, async (req, reply) => {
    const s = await staffRequest(deps, req, reply);
    if (!s) return reply;
    const created = await area(deps).reveals.take(req, reply, s.who.session.key, TOKEN_REVEAL);
    return sendHtml(reply, 200, tokensPage(await view(s, { created, flash: area(deps).flash.take(req, reply) })));
  });

  scope.post(path, async (req, reply) => {
    const s = await staffRequest(deps, req, reply);
    if (!s) return reply;
    area(deps).checkCsrf(s.who, req.body);
    const label = formField(req.body, 'label').trim();
    const days = formField(req.body, 'expiresInDays').trim() || String(PERSONAL_TOKEN_DEFAULT_DAYS);
    const typed = formField(req.body, 'confirm');
    const page = await view(s, { label, days });
    const fields: { path: string; message: string }[] = [];
    if (personalTokenLabelProblem(label)) fields.push({ path: 'label', message: M.tokenLabelProblem });
    if (!/^\d+$/.test(days) || !validPersonalTokenDays(Number(days))) fields.push({ path: 'expiresInDays', message: M.tokenDaysProblem });
    if (page.confirm === 'sign-in-again') return seeOther(reply, TOKENS_PATH);
    if (page.confirm !== 'recent' && !typed.trim()) fields.push({ path: 'confirm', message: M.confirmMissing });
    if (fields.length) return sendHtml(reply, 400, tokensPage({ ...page, fields }));
    const confirmed = await confirmIdentity(deps, req, reply, s.who, page.confirm, typed, (status, message) => tokensPage(status === 401
      ? { ...page, fields: [{ path: 'confirm', message: page.confirm === 'code' ? M.confirmWrongCode : M.wrongPassword }] }
      : { ...page, message }));
    if (!confirmed) {
      req.log.info({ event: 'school.token_refused_confirmation', userId: s.member.user.id, with: page.confirm }, 'staff API token not made: not confirmed');
      return confirmed === false ? seeOther(reply, TOKENS_PATH) : reply;
    }
    const made = await tokens.create(s.member, { label, days: Number(days) });
    if (!made) return sendHtml(reply, 409, tokensPage({ ...page, fields: [{ path: 'label', message: M.tokenTooMany(STAFF_TOKEN_MAX_ACTIVE) }] }));
    await area(deps).reveals.set(reply, s.who.session.key, TOKEN_REVEAL, made.token);
    return seeOther(reply, TOKENS_PATH);
  });

  /** One of the person's own tokens; the console's 404 for anything else. */
  const ownToken = async (s: StaffRequest, id: string) => {
    const token = (await tokens.list(s.member.user.id)).find((t) => t.id === id);
    if (!token) throw new NotInSchoolError(M.tokenGone);
    return token;
  };

  scope.get<{ Params: { id: string } }>(`${path}/:id/revoke`, async (req, reply) => {
    const s = await staffRequest(deps, req, reply);
    if (!s) return reply;
    return sendHtml(reply, 200, tokenRevokePage(s.who, await ownToken(s, req.params.id)));
  });

  scope.post<{ Params: { id: string } }>(`${path}/:id/revoke`, async (req, reply) => {
    const s = await staffRequest(deps, req, reply);
    if (!s) return reply;
    area(deps).checkCsrf(s.who, req.body);
    const token = await ownToken(s, req.params.id);
    if (await tokens.revoke(s.member, token.id)) area(deps).flash.set(reply, M.tokenRevoked(token.label));
    return seeOther(reply, TOKENS_PATH);
  });
}
