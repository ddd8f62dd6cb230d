import { EMOJI_BANK, EMOJI_PASSWORD_LENGTH } from '../../src/formats/emoji-bank.js';
import { html, type Raw } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';
import { errorMessage, hiddenFields, stepFooter, stepHeading, type StepView } from './step-frame.js';

export interface EmojiView extends StepView {
  /** Where the form posts. */
  action: string;
  /** The username field, or (second factor after a badge) a fixed greeting instead. */
  username?: string;
  askUsername: boolean;
  greeting?: string;
  chosen: string[];
  error?: string | Raw;
  /**
   * Class sign-in: the pupil whose name tile was tapped (their user id goes back in a hidden `pupil` field, and
   * the greeting names them); no username is asked.
   */
  pupil?: { id: string; name: string } | undefined;
}

/** Filled dots only, never the pictures: a classmate looking over the shoulder learns nothing. */
const progress = (chosen: string[]) => html`
<div class="dots" data-emoji-dots aria-hidden="true">${Array.from({ length: EMOJI_PASSWORD_LENGTH }, (_, i) =>
    html`<span class="dot${i < chosen.length ? ' filled' : ''}"></span>`)}</div>
<p class="visually-hidden" role="status" aria-live="polite" data-emoji-status>${chosen.length} of ${EMOJI_PASSWORD_LENGTH} pictures chosen</p>`;

/**
 * The emoji keyboard: big touch targets, each picture a button named for screen readers ("dog"). Works
 * without JavaScript (each tap posts the form and the server adds the picture); with interactions/public/
 * emoji.js the taps stay in the page. "Sign in" comes first in the form, so Enter in the name field submits.
 */
export function emojiKeyboard(v: EmojiView): string {
  return layout(`Sign in to ${v.organisation.name}`, html`
${stepHeading(v, v.greeting ?? 'Type your username, then tap your secret pictures')}
${errorMessage(v.error)}
<form method="post" action="${v.action}" class="emoji-form" data-emoji-form novalidate>
  ${hiddenFields(v)}
  <input type="hidden" name="emoji" value="${v.chosen.join(',')}" data-emoji-value>
  ${v.askUsername ? html`
  <label for="username">Your username</label>
  <input id="username" name="username" type="text" value="${v.username ?? ''}" autocomplete="username"
    autocapitalize="none" spellcheck="false" required ${v.username ? '' : 'autofocus'}>` : ''}
  <div class="emoji-entry">
    ${progress(v.chosen)}
    <div class="emoji-actions">
      <button type="submit" name="go" value="1" class="go">Sign in</button>
      <button type="submit" name="del" value="1" class="delete" aria-label="Delete the last picture"><span aria-hidden="true">⌫</span> Delete</button>
    </div>
  </div>
  <p class="visually-hidden" id="emoji-hint" data-emoji-hint hidden>Use the arrow keys to move between the pictures.</p>
  <div class="emoji-grid" role="group" aria-label="Emoji keyboard" data-emoji-grid>${EMOJI_BANK.map(([name, glyph]) => html`
    <button type="submit" name="add" value="${name}" class="emoji-key" aria-label="${name}" title="${name}"><span aria-hidden="true">${glyph}</span></button>`)}
  </div>
</form>
${stepFooter(v, 'emoji')}
<script src="/assets/emoji.js" defer></script>
`);
}
