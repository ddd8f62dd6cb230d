import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { DEFAULT_LOCALE, directionOf, LOCALES, type Locale } from '../../formats/locales.js';
import { CATALOGUE, type MessageKey } from '../messages/catalogue.js';

/** What a message's arguments may be: text (escaped where the page puts it) or numbers (plurals, formatted per language). */
export type MessageValues = Record<string, string | number>;

/**
 * A page's words in one language: `t('emoji.prompt')`, `t('wait.seconds', { count: 5 })`. The result is
 * plain text: html`` escapes it, and a name given as an argument too. Pages that speak to pupils take one
 * (translatorFor in choose-locale.ts) and give it to layout() for the page's `lang` and `dir`.
 */
export interface Translator {
  readonly locale: Locale;
  readonly dir: 'ltr' | 'rtl';
  t(key: MessageKey, values?: MessageValues): string;
}

const cache = createIntlCache();

function build(locale: Locale): Translator {
  const intl: IntlShape<string> = createIntl({
    locale,
    defaultLocale: DEFAULT_LOCALE,
    messages: CATALOGUE[locale],
    // Every key exists in every language (the compiler and test/unit/web/messages.test.ts check): an error
    // here is a message that does not parse or an argument left out, a programming error.
    onError: (err) => { throw err; },
  }, cache);
  return {
    locale,
    dir: directionOf(locale),
    t: (key, values) => intl.formatMessage({ id: key }, values) as string,
  };
}

const TRANSLATORS = new Map<Locale, Translator>(LOCALES.map((l) => [l, build(l)]));

export const translator = (locale: Locale): Translator => TRANSLATORS.get(locale)!;

/** English: for pages no pupil sees (the developer area, the school console) and for tests. */
export const ENGLISH: Translator = translator(DEFAULT_LOCALE);
