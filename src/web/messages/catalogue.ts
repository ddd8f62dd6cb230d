import type { Locale } from '../../formats/locales.js';
import { classLinkAr } from './classLink/ar.js';
import { classLinkEn } from './classLink/en.js';
import { classLinkEs } from './classLink/es.js';
import { classLinkFr } from './classLink/fr.js';
import { classSignInAr } from './classSignIn/ar.js';
import { classSignInEn } from './classSignIn/en.js';
import { classSignInEs } from './classSignIn/es.js';
import { classSignInFr } from './classSignIn/fr.js';
import { commonAr } from './common/ar.js';
import { commonEn } from './common/en.js';
import { commonEs } from './common/es.js';
import { commonFr } from './common/fr.js';

/**
 * The one message catalogue, every language (docs/languages.md): one folder per part of the pages
 * (common/, …), one file per language in each. A part is added here, in all four lines.
 */
const EN = {
  ...commonEn,
  ...classLinkEn,
  ...classSignInEn,
};

export type MessageKey = keyof typeof EN;

export const CATALOGUE: Readonly<Record<Locale, Readonly<Record<MessageKey, string>>>> = {
  en: EN,
  es: {
    ...commonEs,
    ...classLinkEs,
    ...classSignInEs,
  },
  fr: {
    ...commonFr,
    ...classLinkFr,
    ...classSignInFr,
  },
  ar: {
    ...commonAr,
    ...classLinkAr,
    ...classSignInAr,
  },
};
