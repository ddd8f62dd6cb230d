import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../routes.js';
import { developerHeader } from '../web/components.js';
import { html } from '../web/html.js';
import { pagesAtIssuerHost } from '../web/issuer-host.js';
import { layout } from '../web/layout.js';
import { accountSection } from './account.js';
import { apiSection } from './api.js';
import { claimsSection } from './claims.js';
import { errorsSection } from './errors.js';
import { flowSection } from './flow.js';
import { goingLiveSection } from './going-live.js';
import { launchSection } from './launch.js';
import { logoutSection } from './logout.js';
import { overviewSection } from './overview.js';
import { registerSection } from './register.js';
import { sandboxSection } from './sandbox.js';
import { type DocSection, docsContext } from './section.js';
import { userApiSection } from './user-api.js';

/** The guide's sections, in reading order: from getting an account to going live, then the references. */
export const DOC_SECTIONS: readonly DocSection[] = [
  overviewSection,
  accountSection,
  registerSection,
  flowSection,
  claimsSection,
  userApiSection,
  launchSection,
  logoutSection,
  sandboxSection,
  goingLiveSection,
  apiSection,
  errorsSection,
];

/** The developer guide: one page, so it can be searched and printed whole; each section has an anchor. */
export function docsPage(issuer: string): string {
  const ctx = docsContext(issuer);
  // The developer area's header, without the signed-in parts: the guide is public.
  const nav = developerHeader('Lanyard for developers', [
    { label: 'Developer area', href: '/developer' },
    { label: 'Sandbox', href: '/developer/sandbox' },
    { label: 'Guide', href: ROUTES.docs, current: true },
  ]);
  return layout('Developer guide', html`<div class="docs-page">
<h1>Sign in with Lanyard: the developer guide</h1>
<p class="muted">Everything to integrate an app with Lanyard, from getting a developer account to going live.</p>
<nav class="docs-toc" aria-labelledby="toc-heading">
  <h2 id="toc-heading">Contents</h2>
  <ol>${DOC_SECTIONS.map((s) => html`<li><a href="#${s.id}">${s.title}</a></li>`)}</ol>
</nav>
${DOC_SECTIONS.map((s) => html`<section class="docs-section" aria-labelledby="${s.id}">
<h2 id="${s.id}">${s.title}</h2>
${s.body(ctx)}
</section>`)}
</div>`, { nav, wide: true });
}

/**
 * GET /docs: the developer documentation, advertised as discovery's service_documentation (by default).
 * The page depends only on the issuer, so it is built once.
 */
export async function docsRoute(app: FastifyInstance, issuer: string): Promise<void> {
  const page = docsPage(issuer);
  await app.register(async (scope) => {
    pagesAtIssuerHost(scope, issuer);
    scope.get(ROUTES.docs, async (_req, reply) => reply.type('text/html; charset=utf-8').header('Cache-Control', 'public, max-age=300').send(page));
  });
}
