import type { Raw } from '../src/web/html.js';
import type { FastifyInstance } from 'fastify';
import type { User } from '../adapters/store.js';
import { EMOJI_PASSWORD_LENGTH } from '../src/accounts/emoji-bank.js';
import { checkEmojiPassword } from '../src/accounts/password-login.js';
import { findBadgeHolder } from '../src/badges/badges.js';
import { attemptSignIn, completeLogin } from './attempt.js';
import { issueTicket, redeemTicket } from './badge-ticket.js';
import { type InteractionDeps, sendHtml } from './context.js';
import { type EmojiBody, readEmojiInput, TAP_ALL } from './emoji-input.js';
import { type LoginStep, loginStep } from './login-step.js';
import { html } from '../src/web/html.js';
import { badgeScanner } from './views/badge-scanner.js';
import { emojiKeyboard } from './views/emoji-keyboard.js';

type Route<B> = { Params: { uid: string }; Querystring: { org?: string }; Body: B };

/** The second factor after a badge (organisations with badge + emoji): the keyboard, without a username. */
function secondFactorPage(deps: InteractionDeps, step: LoginStep, user: User, ticket: string, chosen: string[], error?: string | Raw) {
  return emojiKeyboard({
    ...step,
    action: `/interaction/${step.uid}/badge/emoji`,
    askUsername: false,
    greeting: `Hello ${user.givenName}! Now tap your secret pictures`,
    extraHidden: html`<input type="hidden" name="ticket" value="${ticket}">`,
    chosen,
    ...(error ? { error } : {}),
  });
}

/** /interaction/:uid/badge — a magic badge (QR code) by camera, photo or typed code. */
export function badgeRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  app.get<Route<unknown>>('/interaction/:uid/badge', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'badge');
    if (!step) return reply;
    return sendHtml(reply, 200, badgeScanner(step));
  });

  app.post<Route<{ code?: string }>>('/interaction/:uid/badge', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'badge');
    if (!step) return reply;
    const code = typeof (req.body as { code?: unknown })?.code === 'string' ? (req.body as { code: string }).code.slice(0, 100) : '';
    const user = await attemptSignIn(deps, req, reply, step, {
      factor: 'badge',
      verify: () => findBadgeHolder(deps.store, step.organisation, code),
      retry: (_status, error) => badgeScanner({ ...step, error }),
      // With badge + emoji the device becomes known only after the second factor.
      final: !step.organisation.login.badgeRequiresEmoji,
    });
    if (!user) return reply;
    if (!step.organisation.login.badgeRequiresEmoji) return completeLogin(deps, req, reply, step, user, ['pop']);
    const ticket = issueTicket(deps.cookieKeys, step.uid, user.id, deps.clock.now().getTime());
    return sendHtml(reply, 200, secondFactorPage(deps, step, user, ticket, []));
  });

  app.post<Route<EmojiBody & { ticket?: string }>>('/interaction/:uid/badge/emoji', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'badge');
    if (!step) return reply;
    const body = (req.body ?? {}) as EmojiBody & { ticket?: string };
    const userId = redeemTicket(deps.cookieKeys, step.uid, body.ticket, deps.clock.now().getTime());
    const holder = userId ? await deps.store.findUser(userId) : undefined;
    if (!holder || holder.organisationId !== step.organisation.id) {
      return sendHtml(reply, 400, badgeScanner({ ...step, error: 'That took too long. Show your badge again.' }));
    }
    const { chosen, action } = readEmojiInput(body);
    if (action !== 'go') return sendHtml(reply, 200, secondFactorPage(deps, step, holder, body.ticket!, chosen));
    if (chosen.length !== EMOJI_PASSWORD_LENGTH) return sendHtml(reply, 400, secondFactorPage(deps, step, holder, body.ticket!, chosen, TAP_ALL));
    const user = await attemptSignIn(deps, req, reply, step, {
      factor: 'emoji',
      username: holder.username,
      verify: () => checkEmojiPassword(deps.store, step.organisation, holder.username, chosen),
      retry: (_status, error) => secondFactorPage(deps, step, holder, body.ticket!, [], error),
    });
    return user ? completeLogin(deps, req, reply, step, user, ['pop', 'pin', 'mfa']) : reply;
  });
}
