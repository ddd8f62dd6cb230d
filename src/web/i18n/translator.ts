import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { DEFAULT_LOCALE, directionOf, LOCALES, type Locale } from '../../formats/locales.js';
import { CATALOGUE, type MessageKey } from '../messages/catalogue.js';

/** What a message's arguments may be: text (escaped where the page puts it) or numbers (plurals, formatted per language). */
export type MessageValues = Record<string, string | number>;

/**
 * A page's words in one language: `t('emoji.prompt')`, `t('wait.seconds', { count: 5 })`. The result is
 * plain text: html`` escapes it, and a name given as an argument too; on a right-to-left page each text
 * argument is isolated (isolatedValues). Pages that speak to pupils take one
 * (translatorFor in choose-locale.ts) and give it to layout() for the page's `lang` and `dir`.
 */
export interface Translator {
  readonly locale: Locale;
  readonly dir: 'ltr' | 'rtl';
  t(key: MessageKey, values?: MessageValues): string;
}

const cache = createIntlCache();

const FSI = '\u2068';
const PDI = '\u2069';

/**
 * A name inside a sentence, isolated from the text around it (Unicode bidi FSI … PDI, UAX #9): a Latin
 * "Ava K." in an Arabic sentence keeps its full stop where it belongs, and an Arabic name in an English one its
 * order. Already isolated: as it is.
 */
export const isolated = (name: string): string => (name.startsWith(FSI) && name.endsWith(PDI) ? name : `${FSI}${name}${PDI}`);

/**
 * A right-to-left page's arguments, each isolated: a school's, an app's or a pupil's name is data, often Latin
 * and often ending in punctuation ("St. Mary's C.E.", "Maths!"), which the bidi algorithm would otherwise
 * move to the sentence's other end. Left-to-right pages keep their arguments as they are (a caller isolates a
 * name that may be right to left, as class sign-in does).
 */
const isolatedValues = (values: MessageValues): MessageValues =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? isolated(v) : v]));

function build(locale: Locale): Translator {
  const intl: IntlShape<string> = createIntl({
    locale,
    defaultLocale: DEFAULT_LOCALE,
    messages: CATALOGUE[locale],
    // Every key exists in every language (the compiler and test/unit/web/messages.test.ts check): an error
    // here is a message that does not parse or an argument left out, a programming error.
    onError: (err) => { throw err; },
  }, cache);
  const dir = directionOf(locale);
  return {
    locale,
    dir,
    t: (key, values) => intl.formatMessage({ id: key }, dir === 'rtl' && values ? isolatedValues(values) : values) as string,
  };
}

const TRANSLATORS = new Map<Locale, Translator>(LOCALES.map((l) => [l, build(l)]));

export const translator = (locale: Locale): Translator => TRANSLATORS.get(locale)!;

/** English: for pages no pupil sees (the developer area, the school console) and for tests. */
export const ENGLISH: Translator = translator(DEFAULT_LOCALE);
