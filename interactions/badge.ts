import type { Raw } from '../src/web/html.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from '../adapters/store.js';
import { EMOJI_PASSWORD_LENGTH } from '../src/formats/emoji-bank.js';
import { checkEmojiPassword } from '../src/accounts/password-login.js';
import { findBadgeHolder } from '../src/badges/badges.js';
import { attemptSignIn, completeLogin } from './attempt.js';
import { dropTicket, giveTicket, heldTicket, issueTicket, redeemTicket } from './badge-ticket.js';
import { type InteractionDeps, sendHtml } from './context.js';
import { type EmojiBody, readEmojiInput, TAP_ALL } from './emoji-input.js';
import { type LoginStep, loginStep } from './login-step.js';
import { badgeScanner } from './views/badge-scanner.js';
import { emojiKeyboard } from './views/emoji-keyboard.js';

type Route<B> = { Params: { uid: string }; Querystring: { org?: string }; Body: B };

/** The second factor after a badge (organisations with badge + emoji): the keyboard, without a username. */
function secondFactorPage(step: LoginStep, user: User, chosen: string[], error?: string | Raw) {
  return emojiKeyboard({
    ...step,
    action: `/interaction/${step.uid}/badge/emoji`,
    askUsername: false,
    greeting: `Hello ${user.givenName}! Now tap your secret pictures`,
    chosen,
    ...(error ? { error } : {}),
  });
}


/** The badge holder whose ticket this browser holds for this sign-in, while it is valid. */
async function ticketHolder(deps: InteractionDeps, req: FastifyRequest, step: LoginStep): Promise<User | undefined> {
  const userId = redeemTicket(deps.cookieKeys, step.uid, heldTicket(req), deps.clock.now().getTime());
  const holder = userId ? await deps.store.findUser(userId) : undefined;
  return holder?.organisationId === step.organisation.id ? holder : undefined;
}

/** /interaction/:uid/badge — a magic badge (QR code) by camera, photo or typed code. */
export function badgeRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  app.get<Route<unknown>>('/:uid/badge', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'badge');
    if (!step) return reply;
    return sendHtml(reply, 200, badgeScanner(step));
  });

  app.post<Route<{ code?: string }>>('/:uid/badge', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'badge');
    if (!step) return reply;
    const code = typeof (req.body as { code?: unknown })?.code === 'string' ? (req.body as { code: string }).code.slice(0, 100) : '';
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'badge',
      verify: () => findBadgeHolder(deps.store, step.organisation, code),
      retry: (_status, error) => badgeScanner({ ...step, error }),
      // With badge + emoji the device becomes known only after the second factor.
      final: !step.organisation.login.badgeRequiresEmoji,
    });
    if (!signedIn) return reply;
    if (!step.organisation.login.badgeRequiresEmoji) return completeLogin(deps, req, reply, step, signedIn, ['pop']);
    giveTicket(req, reply, step.uid, issueTicket(deps.cookieKeys, step.uid, signedIn.user.id, deps.clock.now().getTime()));
    const to = `/interaction/${step.uid}/badge/emoji?org=${encodeURIComponent(step.organisation.slug)}`;
    return reply.header('Cache-Control', 'no-store').redirect(to, 303);
  });

  app.get<Route<unknown>>('/:uid/badge/emoji', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'badge');
    if (!step) return reply;
    const holder = await ticketHolder(deps, req, step);
    if (!holder) return sendHtml(reply, 400, badgeScanner({ ...step, error: step.t.t('signIn.badge.tooLong') }));
    return sendHtml(reply, 200, secondFactorPage(step, holder, []));
  });

  app.post<Route<EmojiBody>>('/:uid/badge/emoji', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'badge');
    if (!step) return reply;
    const holder = await ticketHolder(deps, req, step);
    if (!holder) return sendHtml(reply, 400, badgeScanner({ ...step, error: step.t.t('signIn.badge.tooLong') }));
    const { chosen, action } = readEmojiInput((req.body ?? {}) as EmojiBody);
    if (action !== 'go') return sendHtml(reply, 200, secondFactorPage(step, holder, chosen));
    if (chosen.length !== EMOJI_PASSWORD_LENGTH) return sendHtml(reply, 400, secondFactorPage(step, holder, chosen, TAP_ALL));
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'emoji',
      username: holder.username,
      verify: () => checkEmojiPassword(deps.store, step.organisation, holder.username, chosen),
      retry: (_status, error) => secondFactorPage(step, holder, [], error),
    });
    if (!signedIn) return reply;
    dropTicket(req, reply, step.uid);
    // One sign-in, by badge: its pictures were the second step.
    return completeLogin(deps, req, reply, step, { ...signedIn, method: 'badge' }, ['pop', 'pin', 'mfa']);
  });
}
