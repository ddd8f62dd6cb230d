import type { FastifyInstance } from 'fastify';
import type { ClassSummary } from '../../adapters/store.js';
import { html } from '../web/html.js';
import { sendHtml, seeOther } from '../web/http.js';
import { table } from '../web/components.js';
import { maySeeClass } from './access.js';
import { requestsOf } from './app-choices.js';
import { signInsToday } from './audit/today.js';
import type { SchoolDeps } from './deps.js';
import { schoolRequest, staffRequest } from './signed-in.js';
import { schoolLayout, schoolPath } from './views/school-layout.js';
import { todayLine } from './views/today-line.js';

/**
 * The console's front pages: `/school` (straight to the one school, or the schools this member of staff works
 * in) and `/school/:org` (the classes they may see: a teacher's own, or every class for an admin).
 */
export function homeRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  scope.get('/', async (req, reply) => {
    const s = await staffRequest(deps, req, reply);
    if (!s) return reply;
    if (s.member.schools.length === 1) return seeOther(reply, schoolPath(s.member.schools[0]!.organisation.slug));
    return sendHtml(reply, 200, schoolLayout('Your schools', html`
<h1>Your schools</h1>
<ul class="link-list">
  ${s.member.schools.map((school) => html`<li><a href="${schoolPath(school.organisation.slug)}">${school.organisation.name}</a> <span class="muted">${school.admin ? 'school admin' : 'teacher'}</span></li>`)}
</ul>`, s.who, undefined, 'classes'));
  });

  scope.get<{ Params: { org: string } }>('/:org', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org);
    if (!s) return reply;
    const classes = (await deps.store.listClasses(s.school.organisation.id)).filter((c) => maySeeClass(s.school, c.id));
    const slug = s.school.organisation.slug;
    const list = table<ClassSummary>(s.school.admin ? 'Every class of the school' : 'Your classes', [
      { heading: 'Class', cell: (c) => html`<a href="${schoolPath(slug, `/classes/${encodeURIComponent(c.id)}`)}">${c.title}</a>` },
      { heading: 'Teachers', cell: (c) => c.teachers.map((t) => `${t.givenName} ${t.familyName}`).join(', ') || '—' },
      { heading: 'Pupils', cell: (c) => String(c.pupils) },
    ], classes, s.school.admin ? 'The school has no classes yet: bring in its roster.' : 'You have no classes yet.');
    // School admins are told here when developers ask the school to use their apps (docs/school-console.md → Apps).
    const asking = s.school.admin ? await requestsOf(deps).pendingCount(s.school.organisation.id) : 0;
    const notice = asking ? html`<p class="notice"><a href="${schoolPath(slug, '/apps#asking')}">${asking === 1 ? '1 app is' : `${asking} apps are`} asking to be used by the school</a></p>` : '';
    // Who signed in today, at a glance, for the school's admins (its audit trail is theirs alone).
    const today = s.school.admin ? todayLine(slug, await signInsToday(deps.store, s.school.organisation.id, deps.clock.now())) : '';
    return sendHtml(reply, 200, schoolLayout('Classes', html`${notice}<h1>Classes</h1>${today}${list}`, s.who, s.school, 'classes'));
  });
}
