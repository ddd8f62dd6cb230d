import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkEmojiPassword } from '../src/accounts/password-login.js';
import { EMOJI_PASSWORD_LENGTH } from '../src/formats/emoji-bank.js';
import type { Raw } from '../src/web/html.js';
import { attemptSignIn, completeLogin, type SignedIn } from './attempt.js';
import { type InteractionDeps, sendHtml } from './context.js';
import { type EmojiBody, readEmojiInput, tapAll } from './emoji-input.js';
import type { EmojiPageId } from './emoji-pages.js';
import type { LoginStep } from './login-step.js';
import type { EmojiMistake } from './views/emoji-keyboard.js';

/** What the keyboard shows besides the pictures chosen: the page of pictures, or a mistake (its words, its picture). */
export interface KeyboardState {
  page?: EmojiPageId | undefined;
  error?: string | Raw;
  mistake?: EmojiMistake;
  wait?: number;
}

/** What a refused attempt's status means on the keyboard (attemptSignIn's `retry`): the picture it shows. */
export function emojiMistake(status: number, wait: number | undefined): { mistake: EmojiMistake; wait?: number } {
  if (status === 401) return { mistake: 'wrong' };
  if (wait !== undefined) return { mistake: 'wait', wait };
  return { mistake: status === 429 ? 'stopped' : 'incomplete' };
}

export interface EmojiSignIn {
  /** Whose pictures: typed on the keyboard (emoji.ts), a tapped name tile's (class-tiles.ts), a badge's (badge.ts). */
  username: string;
  /** Whether it was typed on this screen: only then does a wrong try ask to check it. */
  usernameTyped: boolean;
  /** The keyboard again with these pictures chosen. */
  keyboard: (chosen: string[], state: KeyboardState) => string;
  /** Said instead of trying when something besides the pictures is missing (a username not typed). */
  missing?: string | undefined;
  /** What follows a sign-in (default: completeLogin, amr `pin`). */
  signedIn?: (signedIn: SignedIn) => Promise<unknown>;
}

/**
 * One post of the emoji keyboard, wherever it is shown: a picture added, Delete or a tab (without JavaScript each
 * posts the form) redraws it, the page of pictures kept; Sign in before six pictures says so; otherwise one
 * attempt through the guessing protection (attempt.ts), whose refusals show as pictures (a wrong try shakes, a
 * wait counts down), the pictures cleared and the first page shown again: a fresh start.
 */
export async function emojiSignIn(
  deps: InteractionDeps, req: FastifyRequest, reply: FastifyReply, step: LoginStep, o: EmojiSignIn,
): Promise<unknown> {
  const { chosen, action, page } = readEmojiInput((req.body ?? {}) as EmojiBody);
  if (action !== 'go') return sendHtml(reply, 200, o.keyboard(chosen, { page }));
  if (chosen.length !== EMOJI_PASSWORD_LENGTH || o.missing) {
    return sendHtml(reply, 400, o.keyboard(chosen, { page, error: o.missing ?? tapAll(step.t), mistake: 'incomplete' }));
  }
  const signedIn = await attemptSignIn(deps, req, reply, step, {
    factor: 'emoji',
    username: o.username,
    usernameTyped: o.usernameTyped,
    verify: () => checkEmojiPassword(deps.store, step.organisation, o.username, chosen),
    retry: (status, error, wait) => o.keyboard([], { error, ...emojiMistake(status, wait) }),
  });
  if (!signedIn) return reply;
  return o.signedIn ? o.signedIn(signedIn) : completeLogin(deps, req, reply, step, signedIn, ['pin']);
}
