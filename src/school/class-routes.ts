import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { maySignIn } from '../accounts/account-status.js';
import { personName } from '../audit/audit-people.js';
import { sendHtml } from '../web/http.js';
import { answer } from './action-answer.js';
import { classOf, classPupils, credentialsChangeable } from './access.js';
import { area } from './area.js';
import { classApps } from './class-apps.js';
import { liveClassLinks } from './class-link-actions.js';
import { schoolDaySettings } from '../config/school-day.js';
import { classLinkPanel } from './views/class-link-pages.js';
import type { SchoolDeps } from './deps.js';
import { NotInSchoolError } from './errors.js';
import { CHANGES_CREDENTIALS, isPupilAction, PRINTS, runPupilAction } from './pupil-actions.js';
import { matchesQuery, searchQuery } from './people-search.js';
import { pupilStatuses } from './pupil-status.js';
import { choiceFields, chosenPupils, paperOf } from './selection.js';
import { schoolForm, schoolRequest } from './signed-in.js';
import { confirmPage } from './views/action-confirm.js';
import { classPage } from './views/class-page.js';
import { classPath } from './views/pupil-parts.js';

type ClassParams = { Params: { org: string; classId: string } };

/**
 * A class's page and what is done from it (docs/school-console.md → Your classes, Printing):
 * `GET /school/:org/classes/:classId` (its pupils, `?q=` a search by name), `…/confirm?action=…` (the
 * confirmation of an action for the pupils ticked or the whole class) and `POST …/:action` (the action: a
 * print answers with its PDF; the others go back to the class with what was done). A class the member of
 * staff may not see is a 404 (access.ts classOf).
 */
export function classRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  /** The signed-in member of staff, the class and its pupils; undefined after answering (to the sign-in). */
  const classOfRequest = async (req: FastifyRequest<ClassParams>, reply: FastifyReply, form: boolean) => {
    const s = await (form ? schoolForm : schoolRequest)(deps, req, reply, req.params.org);
    if (!s) return undefined;
    const klass = await classOf(deps.store, s.school, req.params.classId);
    return { ...s, klass, pupils: await classPupils(deps.store, s.school, klass) };
  };

  scope.get<ClassParams & { Querystring: { q?: string } }>('/:org/classes/:classId', async (req, reply) => {
    const c = await classOfRequest(req, reply, false);
    if (!c) return reply;
    const query = searchQuery(req.query.q);
    const [statuses, apps, summary, links] = await Promise.all([
      pupilStatuses(deps, c.school, c.klass),
      classApps(deps.store, c.pupils),
      deps.store.listClasses(c.school.organisation.id).then((all) => all.find((k) => k.id === c.klass.id)),
      liveClassLinks(deps, c.school, c.klass),
    ]);
    const classLinks = classLinkPanel({
      slug: c.school.organisation.slug, klass: c.klass, csrf: c.who.csrf, links, now: deps.clock.now(), timeZone: schoolDaySettings(deps.config.file).timeZone,
    });
    return sendHtml(reply, 200, classPage({
      who: c.who, school: c.school, klass: c.klass, teachers: (summary?.teachers ?? []).map((t) => `${t.givenName} ${t.familyName}`.trim()),
      total: c.pupils.length, query, pupils: statuses.filter((p) => matchesQuery(p.user, query)), apps, classLinks, flash: area(deps).flash.take(req, reply),
    }));
  });

  scope.get<ClassParams & { Querystring: Record<string, unknown> }>('/:org/classes/:classId/confirm', async (req, reply) => {
    const c = await classOfRequest(req, reply, false);
    if (!c) return reply;
    const action = req.query.action;
    if (!isPupilAction(action)) throw new NotInSchoolError();
    const chosen = chosenPupils(c.pupils, req.query);
    const slug = c.school.organisation.slug;
    const count = chosen.users.length;
    const { refused } = CHANGES_CREDENTIALS.has(action) ? await credentialsChangeable(deps.store, c.school, chosen.users, c.who.account.user) : { refused: [] };
    return sendHtml(reply, 200, confirmPage({
      who: c.who, school: c.school, action,
      whom: `${c.klass.title}: ${chosen.whole ? `the whole class (${count} ${count === 1 ? 'pupil' : 'pupils'})` : count === 1 ? personName(chosen.users[0]!) : `${count} pupils`}`,
      names: chosen.users.map(personName),
      leftOut: PRINTS.has(action) ? chosen.users.filter((u) => !maySignIn(u)).map(personName) : [],
      notChanged: refused.map((r) => personName(r.user)),
      post: classPath(slug, c.klass, `/${action}`),
      fields: choiceFields(chosen),
      back: { href: classPath(slug, c.klass), label: c.klass.title },
    }));
  });

  scope.post<ClassParams & { Params: { action: string } }>('/:org/classes/:classId/:action', async (req, reply) => {
    const { action } = req.params;
    if (!isPupilAction(action)) throw new NotInSchoolError();
    const c = await classOfRequest(req, reply, true);
    if (!c) return reply;
    const chosen = chosenPupils(c.pupils, req.body);
    const done = await runPupilAction(action, { deps, actor: c.who.account.user, school: c.school, inClass: c.klass }, chosen.users, { paper: paperOf(req.body) });
    return answer(deps, reply, done, classPath(c.school.organisation.slug, c.klass));
  });
}
