import { html, type Raw } from './html.js';
import { ENGLISH, type Translator } from './i18n/translator.js';
import type { MessageKey } from './messages/catalogue.js';

/**
 * How a wait is told on Lanyard's pages: in words a child can read, in the page's language
 * (src/web/messages/attempt/), and counting down where a script runs (src/web/public/countdown.js).
 */

/** "about a minute", "3 minutes", "20 seconds": a wait a child can read. */
export function waitInWords(seconds: number, t: Translator = ENGLISH): string {
  if (seconds <= 50) return t.t('wait.seconds', { count: seconds });
  if (seconds <= 90) return t.t('wait.aboutMinute');
  return t.t('wait.minutes', { count: Math.ceil(seconds / 60) });
}

const waitText = (seconds: number, t: Translator) =>
  seconds < 90 ? t.t('wait.seconds', { count: seconds }) : t.t('wait.minutes', { count: Math.ceil(seconds / 60) });

/**
 * A plural message's forms for the page's script, by plural category (Intl.PluralRules), the number as `#`:
 * the script picks the form for each second left as the catalogue would, without the catalogue.
 */
function pluralForms(t: Translator, key: MessageKey): Record<string, string> {
  const rules = new Intl.PluralRules(t.locale);
  const number = new Intl.NumberFormat(t.locale);
  const forms: Record<string, string> = {};
  for (let n = 0; n <= 200 && Object.keys(forms).length < rules.resolvedOptions().pluralCategories.length; n += 1) {
    const category = rules.select(n);
    if (!(category in forms)) forms[category] = t.t(key, { count: n }).replace(number.format(n), '#');
  }
  return forms;
}

const wordsCache = new Map<string, string>();
/** What countdown.js needs to say a wait in the page's language (one JSON per language, made once). */
function countdownWords(t: Translator): string {
  let words = wordsCache.get(t.locale);
  if (!words) {
    words = JSON.stringify({ seconds: pluralForms(t, 'wait.seconds'), minutes: pluralForms(t, 'wait.minutes'), now: t.t('wait.now') });
    wordsCache.set(t.locale, words);
  }
  return words;
}

/** The wait, counting down in the page (src/web/public/countdown.js); plain text without JavaScript. */
export const countdown = (seconds: number, t: Translator = ENGLISH) =>
  html`<span class="nowrap" data-countdown="${seconds}" data-countdown-words="${countdownWords(t)}" aria-live="off">${waitText(seconds, t)}</span>`;

const MARK = '\u0000wait\u0000';
/** A message with a `{wait}` argument, the wait counting down in it (the rest of the message escaped). */
export function withWait(t: Translator, key: MessageKey, seconds: number): Raw {
  const [before = '', after = ''] = t.t(key, { wait: MARK }).split(MARK);
  return html`${before}${countdown(seconds, t)}${after}`;
}

/** What someone turned away by a saturated machine is told (the sign-in screens, the developer area's sign-in). */
export const busyText = (retryAfterSeconds: number, t: Translator = ENGLISH) => withWait(t, 'attempt.busy', retryAfterSeconds);
