import type { FastifyInstance } from 'fastify';
import { type InteractionDeps, sendHtml } from './context.js';
import type { EmojiBody } from './emoji-input.js';
import { emojiSignIn } from './emoji-sign-in.js';
import { loginStep } from './login-step.js';
import { emojiKeyboard } from './views/emoji-keyboard.js';

type Route = { Params: { uid: string }; Querystring: { org?: string }; Body: EmojiBody };

/** /interaction/:uid/emoji — username, then the emoji password on the picture keyboard. */
export function emojiRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  app.get<Route>('/:uid/emoji', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'emoji');
    if (!step) return reply;
    return sendHtml(reply, 200, emojiKeyboard({ ...step, action: `/interaction/${step.uid}/emoji`, askUsername: true, chosen: [] }));
  });

  app.post<Route>('/:uid/emoji', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'emoji');
    if (!step) return reply;
    const body = (req.body ?? {}) as EmojiBody;
    const username = typeof body.username === 'string' ? body.username.trim().slice(0, 64) : '';
    return emojiSignIn(deps, req, reply, step, {
      username,
      usernameTyped: true,
      missing: username ? undefined : step.t.t('emoji.usernameFirst'),
      keyboard: (chosen, state) => emojiKeyboard({ ...step, action: `/interaction/${step.uid}/emoji`, askUsername: true, username, chosen, ...state }),
    });
  });
}
