import { formField } from '../../web/http.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { NO_LINK } from '../team-invitations.js';
import { joinView } from './app-invitations-view.js';
import { appListView, refusedView, registerView } from './app-list-view.js';
import { AM } from './app-messages.js';
import { appPath } from './app-parts.js';
import type { AppRouting, Page } from './app-routing.js';

/** The app list, invitations to a team (answered here), and registering a new app. */
export function listRoutes(r: AppRouting): void {
  const { apps, get, post, done, flashOf, attempt } = r;
  get('/', async (c) => ({
    title: AM.appsTitle, body: appListView(await apps.listApps(c.actor), await apps.invitations.list(c.actor), c.who.csrf, flashOf(c)),
  }));
  // An invitation's answer. One already answered or withdrawn is a 404 without a way to the app (it is not theirs).
  const answer = async (work: () => Promise<Page | undefined>): Promise<Page | undefined> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof NotFoundError) return { status: 404, title: 'Not found', body: refusedView('Not found', err.message, undefined) };
      if (err instanceof ForbiddenError) return { status: 403, title: 'Not allowed', body: refusedView('Not allowed', err.message, undefined) };
      throw err;
    }
  };
  // The link of a team invitation (team-invitation-links.ts), opened signed in.
  get('/team-invitations/:token', async (c) => {
    const token = c.params.token ?? '';
    const invitation = await apps.invitations.byLink(c.actor, token);
    if (!invitation) return { status: 404, title: 'Not found', body: refusedView('Not found', NO_LINK, undefined) };
    return { title: AM.joinTitle(invitation.client.name), body: joinView(invitation, token, c.who.csrf) };
  });
  post('/invitations/:clientId/accept', (c) => answer(async () => {
    const { client } = await apps.invitations.accept(c.actor, c.clientId, formField(c.req.body, 'token') || undefined);
    return done(c, appPath(client.clientId), AM.invitationAccepted(client.name));
  }));
  post('/invitations/:clientId/decline', (c) => answer(async () => {
    const client = await apps.invitations.decline(c.actor, c.clientId);
    return done(c, '/developer', AM.invitationDeclined(client.name));
  }));

  get('/apps/new', async (c) => ({ title: AM.registerTitle, body: registerView(c.who.csrf) }));
  post('/apps/new', async (c) => {
    const form = { name: formField(c.req.body, 'name'), description: formField(c.req.body, 'description'), homepage_url: formField(c.req.body, 'homepage_url'), logo_url: formField(c.req.body, 'logo_url') };
    let clientId = '';
    const failed = await attempt(async () => {
      ({ clientId } = await apps.register(c.actor, { name: form.name, description: form.description, homepageUrl: form.homepage_url, logoUrl: form.logo_url }));
    });
    if (failed) return { status: failed.status, title: AM.registerTitle, body: registerView(c.who.csrf, form, failed.fields, failed.message) };
    return done(c, appPath(clientId), AM.registered(form.name.trim()));
  });
}
