import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreUnavailable, LanyardError, StoreUnavailableError } from '../errors.js';
import { type JsonErrorOptions, jsonErrorAnswer, logStoreUnavailable } from '../http/json-errors.js';
import { errorPage, schoolApps, unavailablePage, type WayOn } from './error-page.js';
import { sendHtml } from './http.js';
import { translatorFor } from './i18n/choose-locale.js';
import { errorSwitchUrl } from './i18n/language-switch.js';
import { ENGLISH, type Translator } from './i18n/translator.js';

/**
 * How a group of routes that people see says no: always a page, never JSON and never a stack trace
 * (docs/architecture.md → Errors). Each group registers it on its own scope (pageErrors) with its own words —
 * the pages pupils and staff see send them back to their school apps; the developer area back a page.
 */

/** Any store failure, wherever a person sees it: "try again in a moment", 503 with Retry-After. */
export function sendUnavailablePage(reply: FastifyReply, t: Translator = ENGLISH, switchUrl?: string): FastifyReply {
  reply.header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS));
  return sendHtml(reply, 503, unavailablePage(t, switchUrl));
}

/** Words of an error page: as they are (English: the developer area, the console), or in the page's language. */
export type PageWords<T> = T | ((t: Translator) => T);

const inLanguage = <T>(words: PageWords<T>, t: Translator): T =>
  (typeof words === 'function' ? (words as (t: Translator) => T)(t) : words);

export interface PageErrorOptions {
  /** What a 500 says. */
  serverError: PageWords<string>;
  /** What any other 4xx says (Fastify's own, an unreadable form; and a LanyardError the group does not show). */
  unreadable: PageWords<string>;
  /** The way on every error page of the group offers, if any. */
  wayOn?: PageWords<WayOn> | undefined;
  /**
   * The pages' language, from the request (the pupils' side: the switch's cookie, the browser's language);
   * English when not given. Given, the pages have the language switch too (for the request's address).
   */
  translatorOf?: ((req: FastifyRequest) => Translator) | undefined;
  /**
   * Whether a LanyardError that may be shown (`expose`) shows its message. The developer area's do; the pages
   * pupils see never show a service's words (a store's "user u… does not exist"), only the group's own.
   */
  showLanyardMessages: boolean;
  /**
   * The group's own page for a 404 it may show (a signed-in area's, inside its frame): a LanyardError of status
   * 404 goes there, with its message, instead of the generic error page.
   */
  notFoundPage?: ((req: FastifyRequest, reply: FastifyReply, message: string) => Promise<FastifyReply>) | undefined;
}

/** The pages pupils and staff see (sign-in screens, logout, the classroom-device page, the dashboard): start again, from the app or the school apps. */
export const SCHOOL_PAGES: PageErrorOptions = {
  serverError: (t) => t.t('errors.server.text'),
  unreadable: (t) => t.t('errors.unreadable.text'),
  wayOn: schoolApps,
  showLanyardMessages: false,
  translatorOf: (req) => translatorFor(req),
};

/** An error answered the scope's page way (pageErrors registers it; the root's negotiation uses it too). */
export function pageErrorAnswer(o: PageErrorOptions) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> => {
    const t = o.translatorOf ? o.translatorOf(req) : ENGLISH;
    const switchUrl = o.translatorOf ? errorSwitchUrl(req.url) : undefined;
    if (isStoreUnavailable(err)) {
      logStoreUnavailable(err, req);
      return sendUnavailablePage(reply, t, switchUrl);
    }
    if (o.notFoundPage && err instanceof LanyardError && err.expose && err.statusCode === 404) return o.notFoundPage(req, reply, err.message);
    const wayOn = o.wayOn && inLanguage(o.wayOn, t);
    const page = (title: string, message: string, code: string) => errorPage(title, message, code, wayOn, undefined, t, switchUrl);
    if (o.showLanyardMessages && err instanceof LanyardError && err.expose && err.statusCode >= 400 && err.statusCode < 500) {
      return sendHtml(reply, err.statusCode, page(t.t(err.statusCode === 404 ? 'errors.notFoundShort' : 'errors.unreadable.title'), err.message, err.code));
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      req.log.error({ err }, 'unhandled error');
      return sendHtml(reply, 500, page(t.t('errors.server.title'), inLanguage(o.serverError, t), 'server_error'));
    }
    return sendHtml(reply, status, page(t.t('errors.unreadable.title'), inLanguage(o.unreadable, t), 'invalid_request'));
  };
}

/**
 * The scope's error handler: the store failing → 503 page; a LanyardError the group shows → its message with
 * its status; any other 4xx → "That did not work"; anything else → 500, logged.
 */
export function pageErrors(scope: FastifyInstance, o: PageErrorOptions): void {
  scope.setErrorHandler(pageErrorAnswer(o));
}

/** A browser navigating (a GET that accepts HTML), for what belongs to no area: it gets a page, anything else JSON. */
export const browserGet = (req: FastifyRequest): boolean => req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');

/**
 * The root's handler: its own routes and every request no area's route answers (the protocol endpoints
 * oidc-provider serves through middie, an unknown address) belong to no area, so an error there goes by what
 * the caller accepts, as the root's not-found does: a browser's GET gets the pupils' page, anything else JSON.
 */
export function negotiatedErrors(scope: FastifyInstance, page: PageErrorOptions, json: JsonErrorOptions): void {
  const asPage = pageErrorAnswer(page);
  const asJson = jsonErrorAnswer(json);
  scope.setErrorHandler((err: FastifyError, req, reply) => (browserGet(req) ? asPage(err, req, reply) : asJson(err, req, reply)));
}
