import type { Locale } from '../../formats/locales.js';
import { attemptAr } from './attempt/ar.js';
import { attemptEn } from './attempt/en.js';
import { attemptEs } from './attempt/es.js';
import { attemptFr } from './attempt/fr.js';
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
import { dashboardAr } from './dashboard/ar.js';
import { dashboardEn } from './dashboard/en.js';
import { dashboardEs } from './dashboard/es.js';
import { dashboardFr } from './dashboard/fr.js';
import { errorsAr } from './errors/ar.js';
import { errorsEn } from './errors/en.js';
import { errorsEs } from './errors/es.js';
import { errorsFr } from './errors/fr.js';
import { refusalAr } from './refusal/ar.js';
import { refusalEn } from './refusal/en.js';
import { refusalEs } from './refusal/es.js';
import { refusalFr } from './refusal/fr.js';
import { signInAr } from './signIn/ar.js';
import { signInEn } from './signIn/en.js';
import { signInEs } from './signIn/es.js';
import { signInFr } from './signIn/fr.js';
import { emojiAr } from './emoji/ar.js';
import { emojiEn } from './emoji/en.js';
import { emojiEs } from './emoji/es.js';
import { emojiFr } from './emoji/fr.js';
import { emojiNamesAr } from './emojiNames/ar.js';
import { emojiNamesEn } from './emojiNames/en.js';
import { emojiNamesEs } from './emojiNames/es.js';
import { emojiNamesFr } from './emojiNames/fr.js';

/**
 * The one message catalogue, every language (docs/languages.md): one folder per part of the pages
 * (common/, classLink/, classSignIn/, signIn/, refusal/, errors/, dashboard/, …), one file per language in each.
 * A part is added here, in all four places.
 */
const EN = {
  ...commonEn,
  ...classLinkEn,
  ...classSignInEn,
  ...signInEn,
  ...refusalEn,
  ...errorsEn,
  ...dashboardEn,
  ...attemptEn,
  ...emojiEn,
  ...emojiNamesEn,
};

export type MessageKey = keyof typeof EN;

export const CATALOGUE: Readonly<Record<Locale, Readonly<Record<MessageKey, string>>>> = {
  en: EN,
  es: {
    ...commonEs,
    ...classLinkEs,
    ...classSignInEs,
    ...signInEs,
    ...refusalEs,
    ...errorsEs,
    ...dashboardEs,
    ...attemptEs,
    ...emojiEs,
    ...emojiNamesEs,
  },
  fr: {
    ...commonFr,
    ...classLinkFr,
    ...classSignInFr,
    ...signInFr,
    ...refusalFr,
    ...errorsFr,
    ...dashboardFr,
    ...attemptFr,
    ...emojiFr,
    ...emojiNamesFr,
  },
  ar: {
    ...commonAr,
    ...classLinkAr,
    ...classSignInAr,
    ...signInAr,
    ...refusalAr,
    ...errorsAr,
    ...dashboardAr,
    ...attemptAr,
    ...emojiAr,
    ...emojiNamesAr,
  },
};
