import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Organisation } from '../adapters/store.js';
import { classTiles, type TilePupil } from '../src/accounts/class-tiles.js';
import { HELP_CODE_LENGTH, normaliseHelpCode } from '../src/accounts/help-codes.js';
import { checkEmojiPassword } from '../src/accounts/password-login.js';
import { EMOJI_PASSWORD_LENGTH } from '../src/formats/emoji-bank.js';
import { html } from '../src/web/html.js';
import { layout } from '../src/web/layout.js';
import type { Translator } from '../src/web/i18n/translator.js';
import { attemptSignIn, completeLogin } from './attempt.js';
import { classContext } from './class-context.js';
import { type InteractionDeps, sendHtml } from './context.js';
import { emojiMistake } from './emoji.js';
import { type EmojiBody, readEmojiInput, tapAll } from './emoji-input.js';
import { type LoginStep, loginStep } from './login-step.js';
import { isolated } from './views/step-frame.js';
import { type EmojiView, emojiKeyboard } from './views/emoji-keyboard.js';
import { pupilHelpCodeForm } from './views/pupil-help-code-form.js';

/**
 * Class sign-in (docs/childrens-sign-in.md → Class sign-in): on a trusted classroom device set to a class, or
 * in a browser that opened a live class link, the sign-in screen shows the class's name tiles (organisation.ts,
 * through tilesFor); a tap opens that pupil's pictures, or their help code, here:
 *
 *   /interaction/:uid/pupil/:pupilId             their emoji keyboard (or their help code, at a school without pictures)
 *   /interaction/:uid/pupil/:pupilId/emoji       the keyboard's form
 *   /interaction/:uid/pupil/:pupilId/help-code   a help code for them
 *
 * Every request asks again whether this browser may see the class (class-context.ts) and whether the pupil is
 * on its tiles; otherwise a 404 that names no one. A tile is just a username: the sign-in goes through the
 * same guessing protection (attempt.ts) as a typed one, and completes as the ordinary screens do.
 */

type Route = { Params: { uid: string; pupilId: string }; Querystring: { org?: string }; Body: EmojiBody & { code?: string } };

/** The name tiles this browser may see at the school's sign-in, or none (no class context, or an empty class). */
export async function tilesFor(deps: InteractionDeps, req: FastifyRequest, organisation: Organisation, t: Translator): Promise<TilePupil[]> {
  const context = await classContext(deps, req, organisation);
  return context ? classTiles(deps.store, organisation, context.classId, t.locale) : [];
}

/** The tapped pupil, when this browser may see their tile now; otherwise answers 404 (naming no one). */
async function tapped(deps: InteractionDeps, req: FastifyRequest<Route>, reply: FastifyReply, step: LoginStep): Promise<TilePupil | undefined> {
  const pupil = (await tilesFor(deps, req, step.organisation, step.t)).find((p) => p.id === req.params.pupilId);
  if (!pupil) sendHtml(reply, 404, gonePage(step));
  return pupil;
}

/** Not on this browser's tiles (or no tiles at all): says so without a name, and goes back to the sign-in. */
const gonePage = (step: LoginStep) => layout(step.t.t('classSignIn.gone.title'), html`
<h1>${step.t.t('classSignIn.gone.title')}</h1>
<p>${step.t.t('classSignIn.gone.text')}</p>
<p class="way-on"><a class="button-link" href="/interaction/${step.uid}?org=${encodeURIComponent(step.organisation.slug)}"><span>${
  step.t.t('classSignIn.whoAreYou')}</span></a></p>
`, { t: step.t, switchUrl: step.url });

/** The tapped pupil's keyboard; `more`: the page of pictures shown, or a mistake (its words, its picture). */
const keyboard = (step: LoginStep, pupil: TilePupil, chosen: string[], more: Partial<Pick<EmojiView, 'error' | 'mistake' | 'wait' | 'page'>> = {}) => emojiKeyboard({
  ...step,
  action: `/interaction/${step.uid}/pupil/${encodeURIComponent(pupil.id)}/emoji`,
  askUsername: false,
  pupil: { id: pupil.id, name: pupil.label },
  greeting: step.t.t('classSignIn.greeting', { name: isolated(pupil.label) }),
  chosen,
  ...more,
});

export function classTileRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  app.get<Route>('/:uid/pupil/:pupilId', async (req, reply) => {
    // Pictures where the school uses them; else the help code, which every school offers.
    const step = await loginStep(deps, req, reply, 'help_code');
    if (!step) return reply;
    const pupil = await tapped(deps, req, reply, step);
    if (!pupil) return reply;
    if (step.organisation.login.methods.includes('emoji')) return sendHtml(reply, 200, keyboard(step, pupil, []));
    return sendHtml(reply, 200, pupilHelpCodeForm({ ...step, pupil: { id: pupil.id, name: pupil.label } }));
  });

  app.post<Route>('/:uid/pupil/:pupilId/emoji', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'emoji');
    if (!step) return reply;
    const pupil = await tapped(deps, req, reply, step);
    if (!pupil) return reply;
    const { chosen, action, page } = readEmojiInput((req.body ?? {}) as EmojiBody);
    if (action !== 'go') return sendHtml(reply, 200, keyboard(step, pupil, chosen, { page }));
    if (chosen.length !== EMOJI_PASSWORD_LENGTH) {
      return sendHtml(reply, 400, keyboard(step, pupil, chosen, { page, error: tapAll(step.t), mistake: 'incomplete' }));
    }
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'emoji',
      username: pupil.username,
      verify: () => checkEmojiPassword(deps.store, step.organisation, pupil.username, chosen),
      // The username is the tile's: a wrong try does not ask to check it.
      usernameTyped: false,
      retry: (status, error, wait) => keyboard(step, pupil, [], { error, ...emojiMistake(status, wait) }),
    });
    return signedIn ? completeLogin(deps, req, reply, step, signedIn, ['pin']) : reply;
  });

  app.get<Route>('/:uid/pupil/:pupilId/help-code', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'help_code');
    if (!step) return reply;
    const pupil = await tapped(deps, req, reply, step);
    if (!pupil) return reply;
    return sendHtml(reply, 200, pupilHelpCodeForm({ ...step, pupil: { id: pupil.id, name: pupil.label } }));
  });

  app.post<Route>('/:uid/pupil/:pupilId/help-code', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'help_code');
    if (!step) return reply;
    const pupil = await tapped(deps, req, reply, step);
    if (!pupil) return reply;
    const shown = { id: pupil.id, name: pupil.label };
    const code = normaliseHelpCode(req.body?.code);
    // Not 6 digits: a typing slip, said as such and not counted (nothing was tried).
    if (!code) {
      return sendHtml(reply, 400, pupilHelpCodeForm({ ...step, pupil: shown, error: step.t.t('classSignIn.helpCodeIncomplete', { count: HELP_CODE_LENGTH }) }));
    }
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'help_code',
      username: pupil.username,
      verify: () => deps.helpCodes.redeem(step.organisation, pupil.username, code),
      retry: (_status, error) => pupilHelpCodeForm({ ...step, pupil: shown, error }),
    });
    // RFC 8176: `otp`, a one-time password.
    return signedIn ? completeLogin(deps, req, reply, step, signedIn, ['otp']) : reply;
  });
}
