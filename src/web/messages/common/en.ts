/**
 * The shared frame's words (layout, language switch, error pages' code line). Every other language's file has
 * exactly these keys (the compiler checks; test/unit/web/messages.test.ts checks the ICU arguments too).
 * Messages are ICU MessageFormat (formatjs): `{name}` arguments, `{count, plural, one {…} other {…}}`.
 * Write apostrophes as ’ (a plain ' quotes ICU syntax).
 */
export const commonEn = {
  'layout.brand': 'Lanyard',
  'layout.skip': 'Skip to content',
  'language.switch': 'Language',
  'error.code': 'Error code:',
} as const;
