import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { isClassLinkLength } from '../accounts/class-link-length.js';
import { schoolDaySettings } from '../config/school-day.js';
import { DEFAULT_LOCALE } from '../formats/locales.js';
import { ROUTES } from '../routes.js';
import { translator } from '../web/i18n/translator.js';
import { formField, sendHtml, seeOther } from '../web/http.js';
import { classOf } from './access.js';
import { area } from './area.js';
import { makeClassLink, revokeClassLink } from './class-link-actions.js';
import type { SchoolDeps } from './deps.js';
import { SchoolInputError } from './errors.js';
import { schoolForm, schoolRequest } from './signed-in.js';
import { classLinkCard, classLinkGone, classLinkPath } from './views/class-link-pages.js';
import { classPath } from './views/pupil-parts.js';
import { schoolLayout } from './views/school-layout.js';

type ClassParams = { Params: { org: string; classId: string } };

/** The reveal that carries a new link's code from the POST to its page (src/web/area/reveal.ts): one per class. */
const revealName = (classId: string) => `class-link:${classId}`;

/** The QR code of a link, as SVG (vector: crisp on the board and on paper), with the quiet zone its readers need. */
const qrSvg = (url: string): Promise<string> => QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });

/**
 * Class links in the console (docs/school-console.md → Class links), for a teacher of the class or a school
 * admin (access.ts classOf: anyone else gets the 404 page): `POST …/classes/:classId/class-links` makes one
 * (`length`: hour, two_hours or school_day) and shows its code, link and QR code once at `GET …/class-link`;
 * `POST …/class-links/:id/revoke` ends one at once. The list is on the class page (class-routes.ts).
 */
export function classLinkRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const timeZone = schoolDaySettings(deps.config.file).timeZone;

  scope.post<ClassParams>('/:org/classes/:classId/class-links', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org);
    if (!s) return reply;
    const klass = await classOf(deps.store, s.school, req.params.classId);
    const length = formField(req.body, 'length');
    if (!isClassLinkLength(length)) throw new SchoolInputError('Choose how long the class link should work.');
    const made = await makeClassLink(deps, s.school, s.who.account.user, klass, length);
    await area(deps).reveals.set(reply, s.who.session.key, revealName(klass.id), JSON.stringify({ code: made.code, expiresAt: made.link.expiresAt }));
    return seeOther(reply, classLinkPath(s.school.organisation.slug, klass));
  });

  scope.get<ClassParams>('/:org/classes/:classId/class-link', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org);
    if (!s) return reply;
    const klass = await classOf(deps.store, s.school, req.params.classId);
    const slug = s.school.organisation.slug;
    const revealed = await area(deps).reveals.take(req, reply, s.who.session.key, revealName(klass.id));
    const shown = revealed ? JSON.parse(revealed) as { code: string; expiresAt: string } : undefined;
    const url = shown && `${deps.issuer}${ROUTES.classLink}/${shown.code}`;
    const body = shown && url
      ? classLinkCard({
        klass, schoolName: s.school.organisation.name, code: shown.code, url, qrSvg: await qrSvg(url),
        expiresAt: new Date(shown.expiresAt), now: deps.clock.now(), timeZone, done: classPath(slug, klass),
        // What pupils read, in the school's language (English where it set none).
        t: translator(s.school.organisation.login.language ?? DEFAULT_LOCALE),
      })
      : classLinkGone({ klass, slug });
    return sendHtml(reply, 200, schoolLayout(`Class link for ${klass.title}`, body, s.who, s.school, 'classes'));
  });

  scope.post<ClassParams & { Params: { id: string } }>('/:org/classes/:classId/class-links/:id/revoke', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org);
    if (!s) return reply;
    const klass = await classOf(deps.store, s.school, req.params.classId);
    const revoked = await revokeClassLink(deps, s.school, s.who.account.user, klass, req.params.id);
    area(deps).flash.set(reply, revoked ? 'The class link is revoked: it opens nothing from now on.' : 'That class link had already ended.');
    return seeOther(reply, `${classPath(s.school.organisation.slug, klass)}#class-link`);
  });
}
