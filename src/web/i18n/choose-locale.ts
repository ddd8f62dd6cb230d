import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { isLocale, type Locale, LOCALES } from '../../formats/locales.js';
import { secureCookieFor, setCookie } from '../../http/cookie-header.js';
import { readCookie } from '../../http/signed-value.js';
import { type Translator, translator } from './translator.js';

/** The language this browser chose with the switch (`?lang=`), kept for 400 days; not secret. */
export const LANGUAGE_COOKIE = 'lanyard_lang';
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

const queryLang = (req: FastifyRequest): unknown => (req.query as { lang?: unknown } | undefined)?.lang;

/** What chooses a page's language, however the request arrived (Fastify's, or oidc-provider's Koa context). */
export interface LocaleHints {
  /** The page's `?lang=` (the switch). */
  asked?: unknown;
  /** The request's Cookie header (the switch's earlier choice). */
  cookie?: string | undefined;
  /** The request's Accept-Language header. */
  acceptLanguage?: string | undefined;
}

/** The switch's choice (`asked`, else its cookie), else the school's setting, else Accept-Language, else English. */
export function pickLocale(h: LocaleHints, school?: Locale): Locale {
  if (isLocale(h.asked)) return h.asked;
  const kept = readCookie(h.cookie, LANGUAGE_COOKIE);
  if (isLocale(kept)) return kept;
  if (isLocale(school)) return school;
  const best = h.acceptLanguage ? new Negotiator({ headers: { 'accept-language': h.acceptLanguage } }).language([...LOCALES]) : undefined;
  return isLocale(best) ? best : 'en';
}

/**
 * The language of a pupil-facing page: the switch's choice (`?lang=` on this request, else the cookie it left),
 * else the school's setting (`school`), else the browser's Accept-Language, else English.
 */
export function chooseLocale(req: FastifyRequest, school?: Locale): Locale {
  return pickLocale({ asked: queryLang(req), cookie: req.headers.cookie, acceptLanguage: req.headers['accept-language'] }, school);
}

/**
 * The page's translator; with `reply`, a `?lang=` choice is kept in the cookie for the next pages, and the
 * answer varies by the headers that chose it.
 */
export function translatorFor(req: FastifyRequest, reply?: FastifyReply, school?: Locale): Translator {
  const locale = chooseLocale(req, school);
  if (reply) {
    reply.header('Vary', 'Accept-Language, Cookie');
    const asked = queryLang(req);
    if (isLocale(asked) && readCookie(req.headers.cookie, LANGUAGE_COOKIE) !== asked) {
      setCookie(reply, { name: LANGUAGE_COOKIE, value: asked, path: '/', maxAge: MAX_AGE_SECONDS, secure: secureCookieFor(req) });
    }
  }
  return translator(locale);
}
