import { csrfField, errorMessage, field } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { AppSummary } from '../app-summary.js';
import { AM, STATUS_TEXT } from './app-messages.js';
import { appFrame, appPath, sectionPath, statusBadge } from './app-parts.js';

/** GET /developer/apps/:clientId/go-live: where the app stands and, in development, the request. */
export function liveView(app: AppSummary, csrf: string, message?: string, error?: string): Raw {
  const { client } = app;
  const id = client.clientId;
  return appFrame(app, 'live', 'Go live', html`
<p>${AM.liveHelp}</p>
<p class="status-line">Now: ${statusBadge(client.status)}</p>
<p>${STATUS_TEXT[client.status].meaning}</p>
${client.reviewNote ? html`<div class="review-note"><p><strong>Your last request was declined.</strong> The operator wrote:</p><blockquote>${client.reviewNote}</blockquote>
  <p>Make the changes, then ask again.</p></div>` : ''}
${errorMessage(error)}
${client.status === 'development' ? html`${client.redirectUris.length === 0
    ? html`<p class="warning">${AM.liveNeedsCallback} <a href="${sectionPath(id, 'credentials')}">Add one</a></p>`
    : html`<p><strong>Before you ask:</strong></p>
<ol class="checklist">
  <li>Sign in with each of the <a href="/developer/sandbox">sandbox school’s test users</a> — including the emoji password and the badge.</li>
  <li>Check your app verifies the ID token (signature, issuer, audience, expiry and nonce).</li>
  <li>Keep only the callback URLs your app really uses.</li>
</ol>`}
<form method="post" action="${appPath(id, '/go-live')}" class="app-form">
  ${csrfField(csrf)}
  <button type="submit">Ask to go live</button>
</form>` : ''}`, message);
}

/** GET /developer/apps/:clientId/delete: what deleting does; the owner types the name to confirm. */
export function deleteView(app: AppSummary, csrf: string, o: { value?: string; error?: string } = {}): Raw {
  const { client } = app;
  return appFrame(app, 'overview', `Delete “${client.name}”?`, html`
<p class="warning">${AM.deleteWarning}</p>
<form method="post" action="${appPath(client.clientId, '/delete')}" class="app-form" novalidate>
  ${csrfField(csrf)}
  ${field({ name: 'confirm_name', label: AM.deleteConfirmLabel, value: o.value ?? '', error: o.error, autocomplete: 'off', autofocus: true,
    hint: html`The name is <strong>${client.name}</strong>.` })}
  <div class="form-actions">
    <button type="submit" class="danger">Delete the app</button>
    <a href="${appPath(client.clientId)}">Keep it</a>
  </div>
</form>`);
}
