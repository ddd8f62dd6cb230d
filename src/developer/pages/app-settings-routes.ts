import { formField, formFields } from '../../web/http.js';
import { fieldOrForm } from './app-form.js';
import { AM } from './app-messages.js';
import { sectionPath } from './app-parts.js';
import type { AppRouting } from './app-routing.js';
import { launchView, logoutView, scopesView } from './app-settings-view.js';

/** An app's default scopes, dashboard launch (initiate_login_uri) and logout URL. */
export function settingsRoutes(r: AppRouting): void {
  const { apps, get, post, done, flashOf, title, attempt } = r;
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
  get('/apps/:clientId/initiate-login-uri', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('Dashboard launch', app), body: launchView(app, c.who.csrf, { message: flashOf(c) }) };
  });
  post('/apps/:clientId/initiate-login-uri', async (c) => {
    const value = formField(c.req.body, 'initiate_login_uri');
    const failed = await attempt(() => apps.setInitiateLoginUri(c.actor, c.clientId, value));
    if (!failed) return done(c, sectionPath(c.clientId, 'launch'), value.trim() ? AM.launchSaved : AM.launchCleared);
    const app = await apps.getApp(c.actor, c.clientId);
    return { status: failed.status, title: title('Dashboard launch', app), body: launchView(app, c.who.csrf, { value, error: fieldOrForm(failed, 'initiate_login_uri') }) };
  });
  post('/apps/:clientId/initiate-login-uri/clear', async (c) => {
    await apps.setInitiateLoginUri(c.actor, c.clientId, undefined);
    return done(c, sectionPath(c.clientId, 'launch'), AM.launchCleared);
  });
  get('/apps/:clientId/logout-url', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('Logout URL', app), body: logoutView(app, c.who.csrf, { message: flashOf(c) }) };
  });
  post('/apps/:clientId/logout-url', async (c) => {
    const value = formField(c.req.body, 'logout_url');
    const failed = await attempt(() => apps.setLogoutUrl(c.actor, c.clientId, value));
    if (!failed) return done(c, sectionPath(c.clientId, 'logout'), value.trim() ? AM.logoutSaved : AM.logoutCleared);
    const app = await apps.getApp(c.actor, c.clientId);
    return { status: failed.status, title: title('Logout URL', app), body: logoutView(app, c.who.csrf, { value, error: fieldOrForm(failed, 'logout_url') }) };
  });
  post('/apps/:clientId/logout-url/clear', async (c) => {
    await apps.setLogoutUrl(c.actor, c.clientId, undefined);
    return done(c, sectionPath(c.clientId, 'logout'), AM.logoutCleared);
  });
}
