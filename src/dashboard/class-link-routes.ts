import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setClassLinkCookie } from '../accounts/class-links.js';
import { ROUTES } from '../routes.js';
import { translatorFor } from '../web/i18n/choose-locale.js';
import { formField, sendHtml, seeOther } from '../web/http.js';
import { classFormCsrf, classFormCsrfValid } from './class-link-form.js';
import type { DashboardDeps } from './deps.js';
import { classCodePage, classLinkEndedPage } from './views/class-link-pages.js';

/**
 * The way in for pupils with a class link (docs/childrens-sign-in.md → Class links): `GET /class` asks for
 * the code a teacher shows; `GET /class/:code` (the link, or its QR code) and `POST /class` (the typed code)
 * open it. A live link leaves the browser the class-link cookie and goes on to its school's sign-in, where the
 * class's name tiles are; a code that opens nothing gets one 404 page, whether it ended, was revoked or was
 * mistyped, or its class has left the roster since (its tiles are gone). Opening is rate limited per source
 * (src/http/rate-limit.ts), so codes cannot be enumerated.
 */
export function classLinkRoutes(app: FastifyInstance, d: DashboardDeps): void {
  const open = async (req: FastifyRequest, reply: FastifyReply, typed: unknown) => {
    const link = await d.classLinks.open(typed);
    const [school, klass] = link ? await Promise.all([d.store.findOrganisation(link.organisationId), d.store.findClass(link.organisationId, link.classId)]) : [];
    if (!link || !school || !klass) return sendHtml(reply, 404, classLinkEndedPage({ t: translatorFor(req, reply), url: req.url }));
    setClassLinkCookie(d.cookieKeys, req, reply, link, d.clock.now());
    return seeOther(reply, `${ROUTES.signIn}?org=${encodeURIComponent(school.slug)}`);
  };

  app.get(ROUTES.classLink, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return sendHtml(reply, 200, classCodePage({ t: translatorFor(req, reply), url: req.url, csrf: classFormCsrf(d.cookieKeys, req, reply) }));
  });

  app.get<{ Params: { code: string } }>(`${ROUTES.classLink}/:code`, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return open(req, reply, req.params.code);
  });

  app.post(ROUTES.classLink, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!classFormCsrfValid(d.cookieKeys, req, formField(req.body, 'csrf'))) {
      const t = translatorFor(req, reply);
      return sendHtml(reply, 403, classCodePage({ t, url: req.url, csrf: classFormCsrf(d.cookieKeys, req, reply), error: t.t('classLink.expired.form') }));
    }
    return open(req, reply, formField(req.body, 'code'));
  });
}
