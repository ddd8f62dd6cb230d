import { schoolQuery } from '../../accounts/school-search.js';
import { formField } from '../../web/http.js';
import type { FormFailure } from './app-form.js';
import { AM } from './app-messages.js';
import { sectionPath } from './app-parts.js';
import type { AppRouting, Ctx, Page } from './app-routing.js';
import { schoolsView } from './app-schools-view.js';

/** A live app's schools (docs/developer-area.md → Asking a school): which use it, which were asked, and asking one. */
export function schoolsRoutes(r: AppRouting): void {
  const { apps, get, post, done, flashOf, title, attempt } = r;
  const schools = async (c: Ctx, query: string, failed?: FormFailure, form?: { organisation: string; note: string }): Promise<Page> => {
    const app = await apps.getApp(c.actor, c.clientId);
    const found = query && app.client.status === 'live' && app.role === 'owner' ? await apps.schools.search(query) : [];
    return {
      status: failed?.status, title: title('Schools', app),
      body: schoolsView({
        app, schools: await apps.schools.of(app), csrf: c.who.csrf, query, found, message: failed ? undefined : flashOf(c),
        form, errors: failed?.fields, formError: failed?.message,
      }),
    };
  };
  get('/apps/:clientId/schools', (c) => schools(c, schoolQuery((c.req.query as { q?: unknown }).q)));
  post('/apps/:clientId/schools', async (c) => {
    const form = { organisation: formField(c.req.body, 'organisation'), note: formField(c.req.body, 'note') };
    let school = '';
    const failed = await attempt(async () => {
      const app = await apps.getApp(c.actor, c.clientId);
      const request = await apps.schools.ask(c.actor, app, form.organisation, form.note);
      school = (await r.deps.store.findOrganisation(request.organisationId))?.name ?? 'The school';
    });
    if (failed) return schools(c, schoolQuery(formField(c.req.body, 'q')), failed, form);
    return done(c, sectionPath(c.clientId, 'schools'), AM.schoolAsked(school));
  });
}
