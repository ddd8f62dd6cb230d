import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { developerApi } from './api/index.js';
import type { DeveloperDeps } from './deps.js';
import { DEVELOPER_PATH } from './area.js';
import { accountPages } from './pages/account-routes.js';
import { appPages } from './pages/app-routes.js';
import { developerNotFound } from './pages/not-found.js';
import { sandboxPages } from './pages/sandbox-routes.js';
import { pagesAtIssuerHost } from '../web/issuer-host.js';
import { pageErrors, type PageErrorOptions } from '../web/page-errors.js';

/** The developer area's pages say no inside the area: go back and try again. */
const DEVELOPER_PAGES: PageErrorOptions = {
  serverError: 'Lanyard could not finish this. Please try again.',
  unreadable: 'The form could not be read. Go back and try again.',
  showLanyardMessages: true,
};

/**
 * The developer area (SPEC: "Per-application settings are managed in a developer area"): pages under
 * /developer for people, the same actions as a JSON API under /developer/api for scripts. Each group has its
 * own error handling and its own not-found: pages answer with a page (showing a message only when it may be
 * shown), the API with `{ error, error_description }`.
 */
export async function developerArea(app: FastifyInstance, deps: DeveloperDeps): Promise<void> {
  await app.register(async (pages) => {
    await pages.register(formbody, { bodyLimit: 16 * 1024 });
    pageErrors(pages, DEVELOPER_PAGES);
    pagesAtIssuerHost(pages, deps.issuer);
    pages.setNotFoundHandler(developerNotFound(deps));
    accountPages(pages, deps);
    appPages(pages, deps);
    sandboxPages(pages, deps);
  }, { prefix: DEVELOPER_PATH });
  await app.register(async (api) => developerApi(api, deps));
}
