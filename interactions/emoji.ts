import type { FastifyInstance } from 'fastify';
import { checkEmojiPassword } from '../src/accounts/password-login.js';
import { EMOJI_PASSWORD_LENGTH } from '../src/formats/emoji-bank.js';
import { attemptSignIn, completeLogin } from './attempt.js';
import { type InteractionDeps, sendHtml } from './context.js';
import { type EmojiBody, readEmojiInput, TAP_ALL } from './emoji-input.js';
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
    const { chosen, action } = readEmojiInput(body);
    const page = (status: number, error?: string, keep = chosen) => sendHtml(reply, status, emojiKeyboard({
      ...step, action: `/interaction/${step.uid}/emoji`, askUsername: true, username, chosen: keep, ...(error ? { error } : {}),
    }));
    if (action !== 'go') return page(200);
    if (chosen.length !== EMOJI_PASSWORD_LENGTH || !username) {
      return page(400, username ? TAP_ALL : 'Type your username first.');
    }
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'emoji',
      username,
      verify: () => checkEmojiPassword(deps.store, step.organisation, username, chosen),
      retry: (_status, error) => emojiKeyboard({
        ...step, action: `/interaction/${step.uid}/emoji`, askUsername: true, username, chosen: [], error,
      }),
    });
    return signedIn ? completeLogin(deps, req, reply, step, signedIn, ['pin']) : reply;
  });
}
