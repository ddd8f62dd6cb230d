import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../routes.js';
import { notFoundPage } from '../web/error-page.js';
import { translatorFor } from '../web/i18n/choose-locale.js';
import { sendHtml } from '../web/http.js';
import type { DashboardDeps } from './deps.js';

/** A stored logo is never a document: no script, no plugin, no framing, whatever its bytes hold. */
const IMAGE_CSP = "default-src 'none'; sandbox; frame-ancestors 'none'";
const HASH = /^[0-9a-f]{64}$/;

/**
 * GET /logos/:clientId/:hash: an app's logo as Lanyard fetched it (docs/security.md → App logos), from
 * Lanyard's own origin, so a dashboard asks no app's host for anything. The address names the bytes (their
 * SHA-256), so it is cached for good; a hash the app no longer uses is not found.
 */
export function logoRoute(app: FastifyInstance, d: Pick<DashboardDeps, 'store'>): void {
  app.get<{ Params: { clientId: string; hash: string } }>(`${ROUTES.logos}/:clientId/:hash`, async (req, reply) => {
    const { clientId, hash } = req.params;
    const logo = HASH.test(hash) ? await d.store.findClientLogo(clientId, hash) : undefined;
    if (!logo) return sendHtml(reply, 404, notFoundPage(translatorFor(req), req.url));
    return reply
      .header('Content-Type', logo.contentType)
      .header('Content-Length', String(logo.bytes.length))
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Content-Security-Policy', IMAGE_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .header('Content-Disposition', 'inline')
      .send(logo.bytes);
  });
}
