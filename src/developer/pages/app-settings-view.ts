import { OFFERED_SCOPES } from '../../clients/offered-scopes.js';
import { csrfField, errorMessage, field, slashed } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { AppSummary } from '../app-summary.js';
import { MAX_URL_LENGTH } from '../../clients/callback-url.js';
import { AM } from './app-messages.js';
import { appFrame, appPath } from './app-parts.js';
import { pendingChangesView } from './app-pending-view.js';

/** GET /developer/apps/:clientId/scopes: a checkbox per scope Lanyard offers, and why openid matters. */
export function scopesView(app: AppSummary, csrf: string, message?: string, error?: string): Raw {
  const chosen = new Set(app.client.defaultScopes);
  return appFrame(app, 'scopes', 'Default scopes', html`
<p>${AM.scopesHelp}</p>
<div class="explain">
  <p><strong>Why openid matters.</strong> ${AM.openidWhy}</p>
</div>
${errorMessage(error)}
<form method="post" action="${appPath(app.client.clientId, '/scopes')}" class="app-form">
  ${csrfField(csrf)}
  <fieldset>
    <legend>Scopes used when a request sends none</legend>
    ${OFFERED_SCOPES.map((s) => html`<div class="check">
      <input type="checkbox" id="scope-${s.name}" name="default_scopes" value="${s.name}"${chosen.has(s.name) ? html` checked` : ''} aria-describedby="scope-${s.name}-hint">
      <label for="scope-${s.name}"><code>${s.name}</code> — ${s.title}</label>
      <p class="hint" id="scope-${s.name}-hint">${s.description}</p>
    </div>`)}
  </fieldset>
  ${chosen.size === 0 ? html`<p class="warning">${AM.noScopesWarning}</p>` : ''}
  <button type="submit">Save default scopes</button>
</form>`, message);
}

/**
 * GET /developer/apps/:clientId/initiate-login-uri: set, change or clear where a dashboard launch sends the
 * browser (OpenID Connect Core §4, third-party initiated login).
 */
export function launchView(app: AppSummary, csrf: string, o: { message?: string | undefined; value?: string; error?: string } = {}): Raw {
  const id = app.client.clientId;
  const current = app.client.initiateLoginUri;
  return appFrame(app, 'launch', 'Dashboard launch', html`
<p>${AM.launchHelp}</p>
<p class="current">${current ? html`Now: ${slashed(current)}` : html`<span class="muted">No initiate login URI is set.</span>`}</p>
${pendingChangesView(id, app.pending, 'initiate_login_uri', csrf)}
<form method="post" action="${appPath(id, '/initiate-login-uri')}" class="app-form" novalidate>
  ${csrfField(csrf)}
  ${field({ name: 'initiate_login_uri', label: current ? 'Change the initiate login URI' : 'Set an initiate login URI', type: 'url', value: o.value ?? current ?? '', error: o.error,
    maxlength: MAX_URL_LENGTH, hint: 'An https:// address, for example https://app.example.com/login/lanyard', autofocus: !!o.error, autocomplete: 'off' })}
  <button type="submit">Save initiate login URI</button>
</form>
${current ? html`<form method="post" action="${appPath(id, '/initiate-login-uri/clear')}" class="app-form secondary-form">
  ${csrfField(csrf)}
  <button type="submit" class="secondary-button">Clear the initiate login URI</button>
</form>` : ''}
<p><a href="/docs#initiate-login-uri">How dashboard launches work</a></p>`, o.message);
}

/** GET /developer/apps/:clientId/logout-url: set, change or clear where /oauth/logout sends people. */
export function logoutView(app: AppSummary, csrf: string, o: { message?: string | undefined; value?: string; error?: string } = {}): Raw {
  const id = app.client.clientId;
  const current = app.client.logoutUrl;
  return appFrame(app, 'logout', 'Logout URL', html`
<p>${AM.logoutHelp}</p>
<p class="current">${current ? html`Now: ${slashed(current)}` : html`<span class="muted">No logout URL is set.</span>`}</p>
${pendingChangesView(id, app.pending, 'logout_url', csrf)}
<form method="post" action="${appPath(id, '/logout-url')}" class="app-form" novalidate>
  ${csrfField(csrf)}
  ${field({ name: 'logout_url', label: current ? 'Change the logout URL' : 'Set a logout URL', type: 'url', value: o.value ?? current ?? '', error: o.error,
    maxlength: MAX_URL_LENGTH, hint: 'An https:// address, for example https://app.example.com/signed-out', autofocus: !!o.error, autocomplete: 'off' })}
  <button type="submit">Save logout URL</button>
</form>
${current ? html`<form method="post" action="${appPath(id, '/logout-url/clear')}" class="app-form secondary-form">
  ${csrfField(csrf)}
  <button type="submit" class="secondary-button">Clear the logout URL</button>
</form>` : ''}`, o.message);
}
