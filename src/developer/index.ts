import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { developerApi } from './api/index.js';
import type { DeveloperDeps } from './deps.js';
import { accountPages } from './pages/account-routes.js';
import { appPages } from './pages/app-routes.js';
import { developerNotFound } from './pages/not-found.js';
import { pageErrorHandler } from './pages/page-errors.js';
import { sandboxPages } from './pages/sandbox-routes.js';

/**
 * The developer area (SPEC: "Per-application settings are managed in a developer area"): pages under
 * /developer for people, the same actions as a JSON API under /developer/api for scripts. Each group has its
 * own error handling: pages answer with a page (showing a message only when it may be shown), the API with
 * `{ error, error_description }`.
 */
export async function developerArea(app: FastifyInstance, deps: DeveloperDeps): Promise<{ notFound: ReturnType<typeof developerNotFound> }> {
  await app.register(async (pages) => {
    await pages.register(formbody, { bodyLimit: 16 * 1024 });
    pageErrorHandler(pages);
    accountPages(pages, deps);
    appPages(pages, deps);
    sandboxPages(pages, deps);
  });
  await app.register(async (api) => developerApi(api, deps));
  // The application's not-found handler answers the area's unknown pages with this (src/app.ts).
  return { notFound: developerNotFound(deps) };
}
