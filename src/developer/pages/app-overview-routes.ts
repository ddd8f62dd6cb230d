import { formField } from '../../web/http.js';
import type { FormFailure } from './app-form.js';
import { AM } from './app-messages.js';
import { overviewView } from './app-overview-view.js';
import { appPath } from './app-parts.js';
import type { AppRouting, Ctx, Page } from './app-routing.js';

/** An app's overview and its details (name, description, homepage, logo). */
export function overviewRoutes(r: AppRouting): void {
  const { deps, apps, get, post, done, flashOf, attempt } = r;
  const overview = async (c: Ctx, failed?: FormFailure, form?: Record<string, string>): Promise<Page> => {
    const app = await apps.getApp(c.actor, c.clientId);
    const secrets = await apps.secretsOf(app);
    return {
      status: failed?.status, title: app.client.name,
      body: overviewView({ app, secrets, issuer: deps.issuer, now: deps.clock.now(), csrf: c.who.csrf, message: failed ? undefined : flashOf(c), form, errors: failed?.fields, formError: failed?.message }),
    };
  };
  get('/apps/:clientId', (c) => overview(c));
  post('/apps/:clientId/details', async (c) => {
    const form = { name: formField(c.req.body, 'name'), description: formField(c.req.body, 'description'), homepage_url: formField(c.req.body, 'homepage_url'), logo_url: formField(c.req.body, 'logo_url') };
    const failed = await attempt(() => apps.updateDetails(c.actor, c.clientId, { name: form.name, description: form.description, homepageUrl: form.homepage_url, logoUrl: form.logo_url }));
    return failed ? overview(c, failed, form) : done(c, `${appPath(c.clientId)}#details`, AM.detailsSaved);
  });
}
