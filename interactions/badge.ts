import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../adapters/store.js';
import { findBadgeHolder } from '../src/badges/badges.js';
import { attemptSignIn, completeLogin, type SignedIn } from './attempt.js';
import { dropTicket, giveTicket, heldTicket, issueTicket, redeemTicket } from './badge-ticket.js';
import { type InteractionDeps, sendHtml } from './context.js';
import type { EmojiBody } from './emoji-input.js';
import { emojiSignIn, type KeyboardState } from './emoji-sign-in.js';
import { type LoginStep, loginStep } from './login-step.js';
import { badgeScanner } from './views/badge-scanner.js';
import { emojiKeyboard } from './views/emoji-keyboard.js';
import { isolated } from './views/step-frame.js';

type Route<B> = { Params: { uid: string }; Querystring: { org?: string }; Body: B };

/** The second factor after a badge (organisations with badge + emoji): the keyboard, greeting the holder, without a username. */
function secondFactorPage(step: LoginStep, user: User, chosen: string[], state: KeyboardState = {}) {
  return emojiKeyboard({
    ...step,
    action: `/interaction/${step.uid}/badge/emoji`,
    askUsername: false,
    greeting: step.t.t('emoji.hello', { name: isolated(user.givenName) }),
    chosen,
    ...state,
  });
}

/** The badge holder whose ticket this browser holds for this sign-in, while it is valid. */
async function ticketHolder(deps: InteractionDeps, req: FastifyRequest, step: LoginStep): Promise<User | undefined> {
  const userId = redeemTicket(deps.cookieKeys, step.uid, heldTicket(req), deps.clock.now().getTime());
  const holder = userId ? await deps.store.findUser(userId) : undefined;
  return holder?.organisationId === step.organisation.id ? holder : undefined;
}

/** The badge's code as posted (at most 100 characters: a badge's is 32). */
export const postedBadgeCode = (body: unknown): string =>
  (typeof (body as { code?: unknown } | undefined)?.code === 'string' ? (body as { code: string }).code.slice(0, 100) : '');

/**
 * After a badge that signs its holder in (here, or on a tapped pupil's badge screen: class-tile-badge.ts): done,
 * or with badge + emoji, on to the holder's pictures, a ticket in a cookie saying whose.
 */
export async function afterBadge(deps: InteractionDeps, req: FastifyRequest, reply: FastifyReply, step: LoginStep, signedIn: SignedIn) {
  if (!step.organisation.login.badgeRequiresEmoji) return completeLogin(deps, req, reply, step, signedIn, ['pop']);
  giveTicket(req, reply, step.uid, issueTicket(deps.cookieKeys, step.uid, signedIn.user.id, deps.clock.now().getTime()));
  const to = `/interaction/${step.uid}/badge/emoji?org=${encodeURIComponent(step.organisation.slug)}`;
  return reply.header('Cache-Control', 'no-store').redirect(to, 303);
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
    const code = postedBadgeCode(req.body);
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'badge',
      verify: () => findBadgeHolder(deps.store, step.organisation, code),
      retry: (_status, error) => badgeScanner({ ...step, error }),
      // With badge + emoji the device becomes known only after the second factor.
      final: !step.organisation.login.badgeRequiresEmoji,
    });
    return signedIn ? afterBadge(deps, req, reply, step, signedIn) : reply;
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
    return emojiSignIn(deps, req, reply, step, {
      username: holder.username,
      // The badge said who: a wrong try asks only about the pictures.
      usernameTyped: false,
      keyboard: (chosen, state) => secondFactorPage(step, holder, chosen, state),
      signedIn: (signedIn) => {
        dropTicket(req, reply, step.uid);
        // One sign-in, by badge: its pictures were the second step.
        return completeLogin(deps, req, reply, step, { ...signedIn, method: 'badge' }, ['pop', 'pin', 'mfa']);
      },
    });
  });
}
