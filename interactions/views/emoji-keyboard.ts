import { EMOJI_PASSWORD_LENGTH, emojiGlyph } from '../../src/formats/emoji-bank.js';
import { html, type Raw } from '../../src/web/html.js';
import type { Translator } from '../../src/web/i18n/translator.js';
import type { MessageKey } from '../../src/web/messages/catalogue.js';
import { layout } from '../../src/web/layout.js';
import { EMOJI_PAGES, type EmojiPageId, FIRST_PAGE, pagePictures } from '../emoji-pages.js';
import { pupilFooter } from './pupil-footer.js';
import { hiddenFields, stepFooter, stepHeading, type StepView, type TappedPupil } from './step-frame.js';

/**
 * What went wrong, shown to a child as a picture as well as in words: `wrong` pictures (the slots shake),
 * `incomplete` (Sign in before six), `wait` (a countdown ring for `wait` seconds), `stopped` (ask a teacher).
 */
export type EmojiMistake = 'wrong' | 'incomplete' | 'wait' | 'stopped';

export interface EmojiView extends StepView {
  /** Where the form posts. */
  action: string;
  /** The username field, or (a tapped name tile, the second factor after a badge) a greeting instead. */
  username?: string;
  askUsername: boolean;
  greeting?: string;
  chosen: string[];
  error?: string | Raw;
  mistake?: EmojiMistake | undefined;
  /** Seconds to wait, with mistake `wait`: the ring counts them down. */
  wait?: number | undefined;
  /** The page of pictures shown (the first when not given). */
  page?: EmojiPageId | undefined;
  /** Class sign-in: the pupil whose name tile was tapped (the links below are theirs: views/pupil-footer.ts). */
  pupil?: TappedPupil | undefined;
}

const FACES: Record<EmojiMistake, string> = { wrong: '🙈', incomplete: '🤔', wait: '⏳', stopped: '🧑‍🏫' };

/** A picture's name, as a screen reader says it in the page's language (the form posts the bank's English name). */
export const pictureName = (t: Translator, name: string) => t.t(`emojiName.${name}` as MessageKey);

/**
 * The six slots: the pictures tapped so far, the next slot marked, so that a child sees each tap land and what
 * Delete will take back. Hidden from screen readers, who hear the count instead (role=status); the script
 * updates both, from data-said (the count's sentence for 0 … 6, in the page's language).
 */
function slots(v: EmojiView): Raw {
  const said = Array.from({ length: EMOJI_PASSWORD_LENGTH + 1 }, (_, n) => v.t.t('emoji.chosen', { count: n, total: EMOJI_PASSWORD_LENGTH }));
  return html`
  <div class="emoji-slots${v.mistake === 'wrong' ? ' shake' : ''}" data-emoji-slots aria-hidden="true">${Array.from({ length: EMOJI_PASSWORD_LENGTH }, (_, i) => {
    const name = v.chosen[i];
    return html`<span class="emoji-slot${name ? ' filled' : ''}${i === v.chosen.length ? ' next' : ''}">${name ? emojiGlyph(name) : ''}</span>`;
  })}</div>
  <p class="visually-hidden" role="status" aria-live="polite" data-emoji-status data-said="${JSON.stringify(said)}">${said[v.chosen.length]}</p>`;
}

/** The mistake, as a face (and, for a wait, a ring emptying over the wait) beside the words, announced as an alert. */
function mistakeMessage(v: EmojiView): Raw | '' {
  if (!v.error) return '';
  const kind = v.mistake ?? 'incomplete';
  const ring = kind === 'wait' && v.wait !== undefined && v.wait > 0 ? html`
  <span class="emoji-ring" data-countdown-ring="${v.wait}" aria-hidden="true"><svg viewBox="0 0 48 48" focusable="false">
    <circle class="emoji-ring-track" cx="24" cy="24" r="20" pathLength="100"></circle>
    <circle class="emoji-ring-left" cx="24" cy="24" r="20" pathLength="100"></circle></svg>
    <span class="emoji-ring-number" data-countdown-number>${new Intl.NumberFormat(v.t.locale).format(v.wait)}</span></span>` : '';
  return html`
<div class="emoji-oops emoji-oops-${kind}">
  ${ring || html`<span class="emoji-face" aria-hidden="true">${FACES[kind]}</span>`}
  <p class="error" role="alert" id="form-error">${v.error}</p>
</div>`;
}

/** One page of pictures (without JavaScript only the page asked for is shown; emoji.js switches in place). */
function picturePage(v: EmojiView, page: (typeof EMOJI_PAGES)[number], shown: EmojiPageId): Raw {
  return html`
    <div class="emoji-grid" id="emoji-page-${page.id}" data-emoji-page="${page.id}" role="group" aria-label="${v.t.t(`emoji.page.${page.id}`)}"${page.id === shown ? '' : html` hidden`}>${pagePictures(page).map(([name, glyph]) => {
      const said = pictureName(v.t, name);
      return html`
      <button type="submit" name="add" value="${name}" class="emoji-key" aria-label="${said}" title="${said}"><span aria-hidden="true">${glyph}</span></button>`;
    })}
    </div>`;
}

/**
 * The emoji keyboard: six slots showing the pictures tapped, a big Delete, the 84 pictures on four pages (tabs
 * with a picture and a word), and Sign in; it fits a phone, a tablet and a Chromebook without scrolling
 * (emoji-keyboard.css). Works without JavaScript (each tap, Delete and tab posts the form and the server re-renders it,
 * the page kept in `at`); with interactions/public/emoji.js the taps and tabs stay in the page. A hidden
 * Sign in comes first in the form, so Enter in the name field signs in rather than switching a page.
 */
export function emojiKeyboard(v: EmojiView): string {
  const t = v.t;
  const askUsername = v.askUsername && !v.pupil;
  const shown = v.page ?? FIRST_PAGE;
  const prompt = v.greeting ?? t.t(askUsername ? 'emoji.prompt' : 'emoji.promptPictures');
  return layout(t.t('emoji.title', { school: v.organisation.name }), html`
${stepHeading(v, prompt)}
${mistakeMessage(v)}
<form method="post" action="${v.action}" class="emoji-form" data-emoji-form novalidate>
  ${hiddenFields(v)}
  <input type="hidden" name="emoji" value="${v.chosen.join(',')}" data-emoji-value>
  <input type="hidden" name="at" value="${shown}" data-emoji-at>
  ${askUsername ? html`
  <button type="submit" name="go" value="1" hidden tabindex="-1">${t.t('emoji.signIn')}</button>
  <div class="emoji-who">
    <label for="username">${t.t('emoji.username')}</label>
    <input id="username" name="username" type="text" value="${v.username ?? ''}" autocomplete="username"
      autocapitalize="none" spellcheck="false" required ${v.username ? '' : 'autofocus'}>
  </div>` : ''}
  <div class="emoji-entry">
    ${slots(v)}
    <button type="submit" name="del" value="1" class="emoji-undo" aria-label="${t.t('emoji.undo')}"><span class="emoji-undo-glyph" aria-hidden="true">⌫</span><span class="emoji-undo-word" aria-hidden="true">${t.t('emoji.undoShort')}</span></button>
  </div>
  <div class="emoji-keyboard" role="group" aria-label="${t.t('emoji.keyboard')}" data-emoji-keyboard>
    <div class="emoji-tabs" role="group" aria-label="${t.t('emoji.pages')}" data-emoji-tabs>${EMOJI_PAGES.map((page) => html`
      <button type="submit" name="page" value="${page.id}" class="emoji-tab" id="emoji-tab-${page.id}" aria-controls="emoji-page-${page.id}"${page.id === shown ? html` aria-current="true"` : ''}><span class="emoji-tab-icon" aria-hidden="true">${page.icon}</span><span class="emoji-tab-label">${t.t(`emoji.page.${page.id}`)}</span></button>`)}
    </div>
    <p class="visually-hidden" id="emoji-hint" data-emoji-hint hidden>${t.t('emoji.hint')}</p>
    ${EMOJI_PAGES.map((page) => picturePage(v, page, shown))}
  </div>
  <button type="submit" name="go" value="1" class="go">${t.t('emoji.signIn')}</button>
</form>
${v.pupil ? pupilFooter({ ...v, pupil: v.pupil }, 'emoji') : stepFooter(v, 'emoji')}
<script src="/assets/emoji.js" defer></script>
`, { t, switchUrl: v.url, stylesheet: 'emoji-keyboard.css' });
}
