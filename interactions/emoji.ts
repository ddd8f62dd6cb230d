import type { FastifyInstance } from 'fastify';
import { checkEmojiPassword } from '../src/accounts/password-login.js';
import { EMOJI_PASSWORD_LENGTH } from '../src/formats/emoji-bank.js';
import type { Raw } from '../src/web/html.js';
import { attemptSignIn, completeLogin } from './attempt.js';
import { type InteractionDeps, sendHtml } from './context.js';
import { type EmojiBody, readEmojiInput, tapAll } from './emoji-input.js';
import { loginStep } from './login-step.js';
import { type EmojiMistake, emojiKeyboard } from './views/emoji-keyboard.js';

type Route = { Params: { uid: string }; Querystring: { org?: string }; Body: EmojiBody };

/** What a refused attempt's status means on the keyboard (attemptSignIn's `retry`): the picture it shows. */
export function emojiMistake(status: number, wait: number | undefined): { mistake: EmojiMistake; wait?: number } {
  if (status === 401) return { mistake: 'wrong' };
  if (wait !== undefined) return { mistake: 'wait', wait };
  return { mistake: status === 429 ? 'stopped' : 'incomplete' };
}

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
    const { chosen, action, page: shown } = readEmojiInput(body);
    const page = (status: number, error?: string | Raw) => sendHtml(reply, status, emojiKeyboard({
      ...step, action: `/interaction/${step.uid}/emoji`, askUsername: true, username, chosen, page: shown,
      ...(error ? { error, mistake: 'incomplete' as const } : {}),
    }));
    if (action !== 'go') return page(200);
    if (chosen.length !== EMOJI_PASSWORD_LENGTH || !username) {
      return page(400, username ? tapAll(step.t) : step.t.t('emoji.usernameFirst'));
    }
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'emoji',
      username,
      verify: () => checkEmojiPassword(deps.store, step.organisation, username, chosen),
      // The pictures are cleared and the first page shown again: a fresh start.
      retry: (status, error, wait) => emojiKeyboard({
        ...step, action: `/interaction/${step.uid}/emoji`, askUsername: true, username, chosen: [], error, ...emojiMistake(status, wait),
      }),
    });
    return signedIn ? completeLogin(deps, req, reply, step, signedIn, ['pin']) : reply;
  });
}
