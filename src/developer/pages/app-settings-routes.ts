import { formField, formFields } from '../../web/http.js';
import type { UrlChangeOutcome } from '../app-urls.js';
import { fieldOrForm } from './app-form.js';
import { AM } from './app-messages.js';
import { sectionPath } from './app-parts.js';
import type { AppRouting } from './app-routing.js';
import { launchView, logoutView, scopesView } from './app-settings-view.js';

/** An app's default scopes, dashboard launch (initiate_login_uri) and logout URL. */
export function settingsRoutes(r: AppRouting): void {
  const { apps, get, post, done, flashOf, title, appOf, attempt } = r;
  get('/apps/:clientId/scopes', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('Scopes', app), body: scopesView(app, c.who.csrf, flashOf(c)) };
  });
  post('/apps/:clientId/scopes', async (c) => {
    const scopes = formFields(c.req.body, 'default_scopes');
    const failed = await attempt(() => apps.setDefaultScopes(c.actor, c.clientId, scopes));
    // None chosen (any unknown one fails above): "cleared", over the page's warning of what that means.
    if (!failed) return done(c, sectionPath(c.clientId, 'scopes'), scopes.length ? AM.scopesSaved : AM.scopesCleared);
    const app = await apps.getApp(c.actor, c.clientId);
    return { status: failed.status, title: title('Scopes', app), body: scopesView(app, c.who.csrf, undefined, fieldOrForm(failed, 'default_scopes')) };
  });
  // The app's two URL settings: a page each, a form to set or change it, and a button to clear it.
  const urlSetting = (o: {
    path: string; field: 'initiate_login_uri' | 'logout_url'; section: 'launch' | 'logout'; heading: string;
    view: typeof launchView; set: typeof apps.setLogoutUrl; saved: string; cleared: string;
  }) => {
    const set = o.set.bind(apps);
    get(`/apps/:clientId/${o.path}`, async (c) => {
      const app = await appOf(c);
      return { title: title(o.heading, app), body: o.view(app, c.who.csrf, { message: flashOf(c) }) };
    });
    post(`/apps/:clientId/${o.path}`, async (c) => {
      const value = formField(c.req.body, o.field);
      let outcome: UrlChangeOutcome | undefined;
      const failed = await attempt(async () => { outcome = await set(c.actor, c.clientId, value); });
      if (!failed) {
        const said = outcome?.proposal ? AM.changeProposed : outcome?.liveRequestWithdrawn ? AM.liveRequestWithdrawn : value.trim() ? o.saved : o.cleared;
        return done(c, sectionPath(c.clientId, o.section), said);
      }
      const app = await appOf(c);
      return { status: failed.status, title: title(o.heading, app), body: o.view(app, c.who.csrf, { value, error: fieldOrForm(failed, o.field) }) };
    });
    post(`/apps/:clientId/${o.path}/clear`, async (c) => {
      await set(c.actor, c.clientId, undefined);
      return done(c, sectionPath(c.clientId, o.section), o.cleared);
    });
  };
  // A team member takes back a change of a live app still waiting for review; back to the setting's page.
  post('/apps/:clientId/pending-changes/:changeId/withdraw', async (c) => {
    const app = await appOf(c);
    const change = app.pending?.find((p) => p.id === c.params.changeId);
    await apps.withdrawChange(c.actor, c.clientId, c.params.changeId ?? '');
    const section = change?.kind === 'logout_url' ? 'logout' : change?.kind === 'initiate_login_uri' ? 'launch' : 'credentials';
    return done(c, sectionPath(c.clientId, section), AM.changeWithdrawn);
  });
  urlSetting({
    path: 'initiate-login-uri', field: 'initiate_login_uri', section: 'launch', heading: 'Dashboard launch', view: launchView,
    set: apps.setInitiateLoginUri, saved: AM.launchSaved, cleared: AM.launchCleared,
  });
  urlSetting({
    path: 'logout-url', field: 'logout_url', section: 'logout', heading: 'Logout URL', view: logoutView,
    set: apps.setLogoutUrl, saved: AM.logoutSaved, cleared: AM.logoutCleared,
  });
}
