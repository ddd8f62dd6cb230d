import { formField } from '../../web/http.js';
import { ForbiddenError } from '../errors.js';
import { historyView } from './app-history-view.js';
import { deleteView, liveView } from './app-live-view.js';
import { AM } from './app-messages.js';
import { sectionPath } from './app-parts.js';
import type { AppRouting, Ctx } from './app-routing.js';

/** An app's history, its request to go live, and deleting it (owners only). */
export function lifecycleRoutes(r: AppRouting): void {
  const { apps, get, post, done, flashOf, title, attempt } = r;
  get('/apps/:clientId/history', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('History', app), body: historyView(app, await apps.historyOf(app), flashOf(c)) };
  });
  get('/apps/:clientId/go-live', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('Go live', app), body: liveView(app, c.who.csrf, flashOf(c)) };
  });
  post('/apps/:clientId/go-live', async (c) => {
    const failed = await attempt(() => apps.requestLive(c.actor, c.clientId));
    if (!failed) return done(c, sectionPath(c.clientId, 'live'), AM.liveRequested);
    const app = await apps.getApp(c.actor, c.clientId);
    return { status: failed.status, title: title('Go live', app), body: liveView(app, c.who.csrf, undefined, failed.message) };
  });
  const ownerApp = async (c: Ctx) => {
    const app = await apps.getApp(c.actor, c.clientId);
    if (app.role !== 'owner') throw new ForbiddenError(AM.ownerOnlyDelete);
    return app;
  };
  get('/apps/:clientId/delete', async (c) => {
    const app = await ownerApp(c);
    return { title: title('Delete', app), body: deleteView(app, c.who.csrf) };
  });
  post('/apps/:clientId/delete', async (c) => {
    const app = await ownerApp(c);
    const typed = formField(c.req.body, 'confirm_name');
    if (typed.trim() !== app.client.name) {
      return { status: 400, title: title('Delete', app), body: deleteView(app, c.who.csrf, { value: typed, error: AM.deleteMismatch }) };
    }
    await apps.deleteApp(c.actor, c.clientId);
    return done(c, '/developer', AM.deleted(app.client.name));
  });
}
