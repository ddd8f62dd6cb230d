import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Organisation } from '../adapters/store.js';
import { classTiles, type TilePupil, tilePupil } from '../src/accounts/class-tiles.js';
import { HELP_CODE_LENGTH, normaliseHelpCode } from '../src/accounts/help-codes.js';
import type { Translator } from '../src/web/i18n/translator.js';
import { attemptSignIn, completeLogin } from './attempt.js';
import { classContext } from './class-context.js';
import { type InteractionDeps, sendHtml } from './context.js';
import type { EmojiBody } from './emoji-input.js';
import { emojiSignIn, type KeyboardState } from './emoji-sign-in.js';
import { type LoginStep, loginStep, type StepMethod } from './login-step.js';
import { badgeScanner } from './views/badge-scanner.js';
import { emojiKeyboard } from './views/emoji-keyboard.js';
import { pupilHelpCodeForm } from './views/pupil-help-code-form.js';
import { pupilWays } from './views/pupil-footer.js';
import { isolated, type TappedPupil } from './views/step-frame.js';
import { tileGonePage } from './views/tile-gone-page.js';

/**
 * Class sign-in (docs/childrens-sign-in.md → Class sign-in): on a trusted classroom device set to a class, or
 * in a browser that opened a live class link, the sign-in screen shows the class's name tiles (organisation.ts,
 * through tilesFor); a tap opens that pupil's ways of signing in that the school offers, here and in
 * class-tile-badge.ts:
 *
 *   /interaction/:uid/pupil/:pupilId             the first of them: their emoji keyboard, their badge, their help code
 *   /interaction/:uid/pupil/:pupilId/emoji       the keyboard's form
 *   /interaction/:uid/pupil/:pupilId/badge       their badge (only theirs signs in)
 *   /interaction/:uid/pupil/:pupilId/help-code   a help code for them
 *
 * Every request asks again whether this browser may see the class (class-context.ts) and whether the pupil is
 * on its tiles (tapped: that one pupil, not the whole class); otherwise a 404 that names no one. A tile is just a
 * username: the sign-in goes through the same guessing protection (attempt.ts) as a typed one, and completes as
 * the ordinary screens do.
 */

export type PupilRoute = { Params: { uid: string; pupilId: string }; Querystring: { org?: string }; Body: EmojiBody & { code?: string } };

/** The name tiles this browser may see at the school's sign-in, or none (no class context, or an empty class). */
export async function tilesFor(
  deps: InteractionDeps, req: FastifyRequest, reply: FastifyReply, organisation: Organisation, t: Translator,
): Promise<TilePupil[]> {
  const context = await classContext(deps, req, organisation, reply);
  return context ? classTiles(deps.store, organisation, context.classId, t.locale) : [];
}

/**
 * The preamble of every tapped pupil's route: the login step for `method` (login-step.ts), then the pupil, when
 * this browser may see their tile now; otherwise answers (the step's own answers, or a 404 naming no one).
 */
export async function tappedStep(
  deps: InteractionDeps, req: FastifyRequest<PupilRoute>, reply: FastifyReply, method: StepMethod,
): Promise<{ step: LoginStep; pupil: TilePupil } | undefined> {
  const step = await loginStep(deps, req, reply, method);
  if (!step) return undefined;
  const context = await classContext(deps, req, step.organisation, reply);
  const pupil = context && await tilePupil(deps.store, step.organisation, context.classId, req.params.pupilId, step.t.locale);
  if (!pupil) {
    sendHtml(reply, 404, tileGonePage(step));
    return undefined;
  }
  return { step, pupil };
}

/** The pupil as their screens name them. */
export const shownPupil = (pupil: TilePupil): TappedPupil => ({ id: pupil.id, name: pupil.label });

/** The tapped pupil's keyboard. */
const keyboard = (step: LoginStep, pupil: TilePupil, chosen: string[], state: KeyboardState = {}) => emojiKeyboard({
  ...step,
  action: `/interaction/${step.uid}/pupil/${encodeURIComponent(pupil.id)}/emoji`,
  askUsername: false,
  pupil: shownPupil(pupil),
  greeting: step.t.t('classSignIn.greeting', { name: isolated(pupil.label) }),
  chosen,
  ...state,
});

export function classTileRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  app.get<PupilRoute>('/:uid/pupil/:pupilId', async (req, reply) => {
    // The school's first way for a pupil (views/pupil-footer.ts): pictures, else the badge, else the help code.
    const tap = await tappedStep(deps, req, reply, 'help_code');
    if (!tap) return reply;
    const { step, pupil } = tap;
    const first = pupilWays(step)[0];
    if (first === 'emoji') return sendHtml(reply, 200, keyboard(step, pupil, []));
    if (first === 'badge') return sendHtml(reply, 200, badgeScanner({ ...step, pupil: shownPupil(pupil) }));
    return sendHtml(reply, 200, pupilHelpCodeForm({ ...step, pupil: shownPupil(pupil) }));
  });

  app.post<PupilRoute>('/:uid/pupil/:pupilId/emoji', async (req, reply) => {
    const tap = await tappedStep(deps, req, reply, 'emoji');
    if (!tap) return reply;
    const { step, pupil } = tap;
    return emojiSignIn(deps, req, reply, step, {
      username: pupil.username,
      // The username is the tile's: a wrong try does not ask to check it.
      usernameTyped: false,
      keyboard: (chosen, state) => keyboard(step, pupil, chosen, state),
    });
  });

  app.get<PupilRoute>('/:uid/pupil/:pupilId/help-code', async (req, reply) => {
    const tap = await tappedStep(deps, req, reply, 'help_code');
    if (!tap) return reply;
    const { step, pupil } = tap;
    return sendHtml(reply, 200, pupilHelpCodeForm({ ...step, pupil: shownPupil(pupil) }));
  });

  app.post<PupilRoute>('/:uid/pupil/:pupilId/help-code', async (req, reply) => {
    const tap = await tappedStep(deps, req, reply, 'help_code');
    if (!tap) return reply;
    const { step, pupil } = tap;
    const shown = shownPupil(pupil);
    const code = normaliseHelpCode(req.body?.code);
    // Not 6 digits: a typing slip, said as such and not counted (nothing was tried).
    if (!code) {
      return sendHtml(reply, 400, pupilHelpCodeForm({ ...step, pupil: shown, error: step.t.t('classSignIn.helpCodeIncomplete', { count: HELP_CODE_LENGTH }) }));
    }
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'help_code',
      username: pupil.username,
      // The tile said who: a wrong code asks only about the code.
      usernameTyped: false,
      verify: () => deps.helpCodes.redeem(step.organisation, pupil.username, code),
      retry: (_status, error) => pupilHelpCodeForm({ ...step, pupil: shown, error }),
    });
    // RFC 8176: `otp`, a one-time password.
    return signedIn ? completeLogin(deps, req, reply, step, signedIn, ['otp']) : reply;
  });
}
