import type { FastifyInstance } from 'fastify';
import type { HelpCode, User } from '../../adapters/store.js';
import { schoolDaySettings } from '../config/school-day.js';
import { formField, sendHtml, seeOther } from '../web/http.js';
import { classOf, classPupils, maySeeClass, personOf, type SchoolAccess } from './access.js';
import { area, safeNext } from './area.js';
import type { SchoolDeps } from './deps.js';
import { NotInSchoolError, SchoolInputError } from './errors.js';
import { helpCodePath, issuerName } from './help-code-panel.js';
import { fullName } from './names.js';
import { schoolForm, schoolRequest } from './signed-in.js';
import { untilText } from './views/help-code-time.js';
import { helpCodeCard, helpCodeGone, helpCodeList, type ListedHelpCode } from './views/help-code-pages.js';
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
    const pupil = await personOf(deps.store, s.school, req.params.userId);
    const issued = await deps.helpCodes.issue(pupil, s.school.organisation.id, s.who.account.id);
    if ('refused' in issued) {
      throw new SchoolInputError(issued.refused === 'other_school'
        ? `${fullName(pupil)} signs in at their own school: a help code is given there.`
        : `${fullName(pupil)} cannot sign in at the moment (suspended, or held by the roster), so no help code was given.`);
    }
    record(deps, s.school, s.who.account.user, pupil, 'help_code.issued', { expiresAt: issued.expiresAt.toISOString() });
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
    const body = shown
      ? helpCodeCard({ pupil, schoolName: s.school.organisation.name, code: shown.code, until: untilText(new Date(shown.expiresAt), deps.clock.now(), timeZone), done: next })
      : helpCodeGone({ pupil, slug, csrf: s.who.csrf, next, live: !!(await deps.helpCodes.live(pupil.id)) });
    return sendHtml(reply, 200, schoolLayout(`Help code for ${fullName(pupil)}`, body, s.who, s.school, 'help-codes'));
  });

  scope.post<PersonRoute>('/:org/people/:userId/help-code/cancel', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org);
    if (!s) return reply;
    const pupil = await personOf(deps.store, s.school, req.params.userId);
    const cancelled = await deps.helpCodes.cancel(pupil.id);
    if (cancelled) record(deps, s.school, s.who.account.user, pupil, 'help_code.cancelled');
    area(deps).flash.set(reply, cancelled ? `The help code of ${fullName(pupil)} is cancelled.` : `${fullName(pupil)} had no help code.`);
    return seeOther(reply, backTo(s.school.organisation.slug, pupil.id, formField(req.body, 'next')));
  });

  scope.get<{ Params: { org: string }; Querystring: { class?: string } }>('/:org/help-codes', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org);
    if (!s) return reply;
    const classes = (await deps.store.listClasses(s.school.organisation.id)).filter((c) => maySeeClass(s.school, c.id));
    const chosenClass = req.query.class ? await classOf(deps.store, s.school, req.query.class) : undefined;
    const codes = await visibleCodes(deps, s.school, await deps.helpCodes.list(s.school.organisation.id), chosenClass && await classPupils(deps.store, s.school, chosenClass));
    return sendHtml(reply, 200, schoolLayout('Help codes', helpCodeList({
      slug: s.school.organisation.slug, csrf: s.who.csrf, codes, classes, chosen: chosenClass && classes.find((c) => c.id === chosenClass.id),
      now: deps.clock.now(), timeZone, message: area(deps).flash.take(req, reply),
    }), s.who, s.school, 'help-codes'));
  });
}

/**
 * The codes this member of staff may see: an admin every one of the school; a teacher those of their classes'
 * pupils (personOf decides, as for every person). `among`: only these pupils (a class).
 */
async function visibleCodes(deps: SchoolDeps, school: SchoolAccess, codes: HelpCode[], among?: User[]): Promise<ListedHelpCode[]> {
  const only = among && new Set(among.map((u) => u.id));
  const names = new Map<string, Promise<string>>();
  const listed: ListedHelpCode[] = [];
  for (const code of codes) {
    if (only && !only.has(code.userId)) continue;
    const pupil = await personOf(deps.store, school, code.userId).catch((err: unknown) => {
      if (err instanceof NotInSchoolError) return undefined;
      throw err;
    });
    if (!pupil) continue;
    if (!names.has(code.issuedBy)) names.set(code.issuedBy, issuerName(deps, code.issuedBy));
    listed.push({ pupil, issuedBy: await names.get(code.issuedBy)!, expiresAt: new Date(code.expiresAt) });
  }
  return listed;
}

function record(deps: SchoolDeps, school: SchoolAccess, actor: User, pupil: User, action: string, detail?: Record<string, string>): void {
  deps.audit.record({
    organisationId: school.organisation.id, kind: 'credential', action, actorId: actor.id, actorName: fullName(actor),
    subjectId: pupil.id, subjectName: fullName(pupil), ...(detail ? { detail } : {}),
  });
}
