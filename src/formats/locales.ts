/**
 * The languages Lanyard's pupil-facing pages speak (the sign-in screens, the dashboard, the refusal pages):
 * English and three more chosen for schools, one of them written right to left. A school's setting names one
 * (organisations[].login.language); the browser's Accept-Language and the page's language switch choose otherwise.
 */
export const LOCALES = ['en', 'es', 'fr', 'ar'] as const;

export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

/** Each language's own name for itself, as the language switch shows it. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', es: 'Español', fr: 'Français', ar: 'العربية' };

/** Written right to left: the page is mirrored (`dir="rtl"`, and the style sheet uses logical properties). */
const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set<Locale>(['ar']);

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

export const directionOf = (locale: Locale): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr');
