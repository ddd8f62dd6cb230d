import type { Raw } from '../../web/html.js';
import { seeOther, sendHtml } from '../../web/http.js';
import { type Actor, actorOf } from '../actor.js';
import { AppService } from '../app-service.js';
import type { AppSummary } from '../app-summary.js';
import { area } from '../area.js';
import type { DeveloperDeps } from '../deps.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { type FormFailure, formFailure } from './app-form.js';
import { refusedView } from './app-list-view.js';
import { AM } from './app-messages.js';
import { developerLayout, type SignedIn } from './signed-in.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** What every handler gets: the signed-in developer, the request and reply, and the app named by the URL. */
export interface Ctx {
  who: SignedIn;
  actor: Actor;
  req: FastifyRequest;
  reply: FastifyReply;
  clientId: string;
  params: Record<string, string>;
}

/** A page to send (a handler that redirected returns nothing). */
export interface Page {
  status?: number;
  title: string;
  body: Raw;
}

type Handler = (c: Ctx) => Promise<Page | undefined>;

/** What each section's routes are written with (app-*-routes.ts): the services, the route makers and the helpers. */
export interface AppRouting {
  deps: DeveloperDeps;
  apps: AppService;
  get(path: string, handler: Handler): void;
  post(path: string, handler: Handler): void;
  /** After a change: the message for the next page, and a 303 to it. */
  done(c: Ctx, to: string, message: string): undefined;
  /** The one-time message the last change left for this page. */
  flashOf(c: Ctx): string | undefined;
  /** A section's page title: "Credentials · Reading Quest". */
  title(section: string, app: AppSummary): string;
  /** The app named by the URL, as the signed-in developer sees it, with its changes waiting for review. */
  appOf(c: Ctx): Promise<AppSummary>;
  /** Runs a change; a refusal the form can show is returned, anything else (404, 403, 503) goes up. */
  attempt(work: () => Promise<unknown>): Promise<FormFailure | undefined>;
}

/**
 * The app pages' routes are all made here: each one signs in (or sends to sign-in), checks the form's CSRF
 * token on a POST before anything else, and answers inside the area's frame; another developer's app is
 * "not found", never "forbidden".
 */
export function appRouting(scope: FastifyInstance, deps: DeveloperDeps): AppRouting {
  const handle = (method: 'GET' | 'POST') => (path: string, handler: Handler) => {
    scope.route<{ Params: Record<string, string> }>({
      method,
      url: path,
      // The area's own address, /developer, has no second spelling with a slash.
      ...(path === '/' ? { prefixTrailingSlash: 'no-slash' as const } : {}),
      handler: async (req, reply) => {
        const who = await area(deps).signedIn(req, reply);
        if (!who) return reply;
        // CSRF before anything else: a forged post learns nothing, not even whether the app exists.
        if (method === 'POST') area(deps).checkCsrf(who, req.body);
        let page: Page | undefined;
        try {
          page = await handler({ who, actor: actorOf(who.account), req, reply, clientId: req.params.clientId ?? '', params: req.params });
        } catch (err) {
          // Inside the area's frame, with a way on: another developer's app is "not found", never "forbidden".
          if (err instanceof NotFoundError) {
            page = { status: 404, title: 'Not found', body: refusedView('Not found', err.noSuchApp ? AM.noSuchApp : err.message, err.noSuchApp ? undefined : req.params.clientId) };
          } else if (err instanceof ForbiddenError) page = { status: 403, title: 'Not allowed', body: refusedView('Not allowed', err.message, req.params.clientId) };
          else throw err;
        }
        return page ? sendHtml(reply, page.status ?? 200, developerLayout(page.title, page.body, who, 'apps')) : reply;
      },
    });
  };
  const done = (c: Ctx, to: string, message: string): undefined => {
    area(deps).flash.set(c.reply, message);
    seeOther(c.reply, to);
    return undefined;
  };
  const flashOf = (c: Ctx) => area(deps).flash.take(c.req, c.reply);
  const title = (section: string, app: AppSummary) => `${section} · ${app.client.name}`;
  const attempt = async (work: () => Promise<unknown>): Promise<FormFailure | undefined> => {
    try {
      await work();
      return undefined;
    } catch (err) {
      const failure = formFailure(err);
      if (!failure) throw err;
      return failure;
    }
  };
  const apps = new AppService(deps);
  const appOf = async (c: Ctx): Promise<AppSummary> => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { ...app, pending: await apps.proposalsOf(app) };
  };
  return { deps, apps, get: handle('GET'), post: handle('POST'), done, flashOf, title, appOf, attempt };
}
