import type { FastifyInstance } from 'fastify';
import { helpCodeRefusal } from '../accounts/help-codes.js';
import { personName } from '../audit/audit-people.js';
import { schoolDaySettings } from '../config/school-day.js';
import { formField, sendHtml, seeOther } from '../web/http.js';
import { classOf, maySeeClass, personOf } from './access.js';
import { area, safeNext } from './area.js';
import type { SchoolDeps } from './deps.js';
import { SchoolInputError } from './errors.js';
import { cancelHelpCode, issueHelpCode, liveHelpCodes } from './help-code-actions.js';
import { helpCodePath, helpCodeRefusalText } from './help-code-panel.js';
import { schoolForm, schoolRequest } from './signed-in.js';
import { untilText } from './views/help-code-time.js';
import { helpCodeCard, helpCodeGone, helpCodeList } from './views/help-code-pages.js';
import { schoolLayout, schoolPath } from './views/school-layout.js';

type PersonRoute = { Params: { org: string; userId: string }; Querystring: { next?: string } };

/** The reveal that carries a code from the POST to its page (src/web/area/reveal.ts): one per pupil. */
const revealName = (userId: string) => `help-code:${userId}`;

/**
 * Help codes in the console (docs/school-console.md → Help codes): a teacher (for their classes' pupils) or a
 * school admin gives a pupil a code, sees it once, large and printable, and sees and cancels the school's live
 * codes. Every change is in the audit trail: `help_code.issued`, `help_code.cancelled` (never the code).
 */
export function helpCodeRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const timeZone = schoolDaySettings(deps.config.file).timeZone;
  /** Where to go back to: a console page given by the form, else the pupil's page. */
  const backTo = (slug: string, userId: string, next: unknown) => {
    const safe = safeNext(next);
    return safe.startsWith(schoolPath(slug, '/')) ? safe : schoolPath(slug, `/people/${encodeURIComponent(userId)}`);
  };

  scope.post<PersonRoute>('/:org/people/:userId/help-code', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org);
    if (!s) return reply;
    const issued = await issueHelpCode(deps, s.school, s.who.account.user, req.params.userId);
    const { pupil } = issued;
    await area(deps).reveals.set(reply, s.who.session.key, revealName(pupil.id), JSON.stringify({ code: issued.code, expiresAt: issued.expiresAt.toISOString() }));
    const next = backTo(s.school.organisation.slug, pupil.id, formField(req.body, 'next'));
    return seeOther(reply, `${helpCodePath(s.school.organisation.slug, pupil.id)}?next=${encodeURIComponent(next)}`);
  });

  scope.get<PersonRoute>('/:org/people/:userId/help-code', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org);
    if (!s) return reply;
    const pupil = await personOf(deps.store, s.school, req.params.userId);
    const slug = s.school.organisation.slug;
    const next = backTo(slug, pupil.id, req.query.next);
    const revealed = await area(deps).reveals.take(req, reply, s.who.session.key, revealName(pupil.id));
    const shown = revealed ? JSON.parse(revealed) as { code: string; expiresAt: string } : undefined;
    if (!shown) {
      // No code to show, and none to give to oneself or to staff: say so rather than offer a button that is refused.
      const refused = await helpCodeRefusal(deps.store, pupil, s.school.organisation.id, s.who.account.id);
      if (refused === 'oneself' || refused === 'staff') throw new SchoolInputError(helpCodeRefusalText(refused, pupil));
    }
    const body = shown
      ? helpCodeCard({ pupil, schoolName: s.school.organisation.name, code: shown.code, until: untilText(new Date(shown.expiresAt), deps.clock.now(), timeZone), done: next })
      : helpCodeGone({ pupil, slug, csrf: s.who.csrf, next, live: !!(await deps.helpCodes.live(pupil.id)) });
    return sendHtml(reply, 200, schoolLayout(`Help code for ${personName(pupil)}`, body, s.who, s.school, 'help-codes'));
  });

  scope.post<PersonRoute>('/:org/people/:userId/help-code/cancel', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org);
    if (!s) return reply;
    const { pupil, cancelled } = await cancelHelpCode(deps, s.school, s.who.account.user, req.params.userId);
    area(deps).flash.set(reply, cancelled ? `The help code of ${personName(pupil)} is cancelled.` : `${personName(pupil)} had no help code.`);
    return seeOther(reply, backTo(s.school.organisation.slug, pupil.id, formField(req.body, 'next')));
  });

  scope.get<{ Params: { org: string }; Querystring: { class?: string } }>('/:org/help-codes', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org);
    if (!s) return reply;
    const classes = (await deps.store.listClasses(s.school.organisation.id)).filter((c) => maySeeClass(s.school, c.id));
    const chosenClass = req.query.class ? await classOf(deps.store, s.school, req.query.class) : undefined;
    const codes = await liveHelpCodes(deps, s.school, chosenClass);
    return sendHtml(reply, 200, schoolLayout('Help codes', helpCodeList({
      slug: s.school.organisation.slug, csrf: s.who.csrf, codes, classes, chosen: chosenClass && classes.find((c) => c.id === chosenClass.id),
      now: deps.clock.now(), timeZone, message: area(deps).flash.take(req, reply),
    }), s.who, s.school, 'help-codes'));
  });
}
