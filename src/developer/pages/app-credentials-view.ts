import type { StoredClientSecret } from '../../../adapters/store.js';
import { COPY_SCRIPT, copyable, csrfField, errorMessage, field, postButton, slashed } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { AppSummary } from '../app-summary.js';
import { APP_LIMITS } from '../app-input.js';
import { MAX_URL_LENGTH } from '../../clients/callback-url.js';
import { AM } from './app-messages.js';
import { credentialCards, credentialFacts } from '../../web/credential-cards.js';
import { appFrame, appPath } from './app-parts.js';
import { pendingChangesView } from './app-pending-view.js';

/** A secret just created, for the one page that shows it. */
export interface RevealedSecret {
  id: string;
  label: string;
  secret: string;
}

export interface CredentialsData {
  app: AppSummary;
  secrets: StoredClientSecret[];
  now: Date;
  csrf: string;
  message?: string | undefined;
  revealed?: RevealedSecret | undefined;
  /** The form that failed, with what was typed and what is wrong. */
  callback?: { value: string; error?: string | undefined };
  secretForm?: { label: string; expires_on: string; errors: Record<string, string>; formError?: string | undefined };
}

export const hintOf = (s: StoredClientSecret) => (s.hint ? (s.hint.startsWith('…') ? s.hint : `…${s.hint}`) : '—');

/** GET /developer/apps/:clientId/credentials: callback URLs, then secrets (the SPEC's "credentials area"). */
export function credentialsView(d: CredentialsData): Raw {
  const id = d.app.client.clientId;
  const uris = d.app.client.redirectUris;
  const sf = d.secretForm ?? { label: '', expires_on: '', errors: {} };
  return appFrame(d.app, 'credentials', 'Credentials', html`
${d.revealed ? html`<div class="reveal" id="new-secret-box">
  <h3>New secret: ${d.revealed.label}</h3>
  <p>${AM.secretOnce}</p>
  ${copyable('new-secret', d.revealed.secret, 'the new secret')}
</div>` : ''}

<h3 id="callbacks">Callback URLs</h3>
<p class="hint">${AM.callbacksHelp}</p>
${uris.length === 0 ? html`<p class="empty-state">No callback URLs yet: add the URL your app receives the code at.</p>` : html`<ul class="url-list" aria-label="Callback URLs">
  ${uris.map((u) => html`<li>${slashed(u)}${postButton(appPath(id, '/callbacks/remove'), d.csrf, 'Remove', { context: u, hidden: { url: u }, remove: true })}</li>`)}
</ul>`}
${pendingChangesView(id, d.app.pending, 'redirect_uri', d.csrf)}
<form method="post" action="${appPath(id, '/callbacks')}" class="app-form add-form" novalidate>
  ${csrfField(d.csrf)}
  ${field({ name: 'redirect_uri', label: 'Add a callback URL', type: 'url', value: d.callback?.value, error: d.callback?.error, maxlength: MAX_URL_LENGTH,
    hint: 'For example https://app.example.com/auth/callback or http://localhost:3000/callback', autofocus: !!d.callback?.error, autocomplete: 'off' })}
  <button type="submit">Add callback URL</button>
</form>

<h3 id="secrets">Client secrets</h3>
<p class="hint">${AM.secretsHelp}</p>
${d.secrets.length === 0 ? html`<p class="empty-state">No secrets yet: create one for your app’s server.</p>` : credentialCards('Client secrets', d.now, d.secrets, {
    endsWith: hintOf,
    revoke: (s) => html`<a class="button-link remove-link" href="${appPath(id, `/secrets/${encodeURIComponent(s.id)}/revoke`)}">Revoke<span class="visually-hidden"> the secret ${s.label}</span></a>`,
  })}
${errorMessage(sf.formError)}
<form method="post" action="${appPath(id, '/secrets')}" class="app-form add-form" novalidate>
  ${csrfField(d.csrf)}
  <fieldset>
    <legend>Create a secret</legend>
    ${field({ name: 'label', label: 'Label', value: sf.label, error: sf.errors.label, maxlength: APP_LIMITS.secretLabelLength, required: true,
      hint: 'Where it is used, such as “Production server”, so you know which one to revoke later.', autofocus: !!sf.errors.label, autocomplete: 'off' })}
    ${field({ name: 'expires_on', label: 'Expires on (optional)', type: 'date', value: sf.expires_on, error: sf.errors.expires_on,
      hint: 'The secret stops working at the end of this day (UTC). Leave empty for a secret that does not expire.' })}
    <button type="submit">Create secret</button>
  </fieldset>
</form>
${COPY_SCRIPT}`, d.message);
}

/** GET …/secrets/:secretId/revoke: what revoking means, then the button. */
export function revokeView(app: AppSummary, secret: StoredClientSecret, csrf: string): Raw {
  const id = app.client.clientId;
  return appFrame(app, 'credentials', `Revoke the secret “${secret.label}”?`, html`
${credentialFacts(secret, hintOf(secret))}
<p class="warning">${AM.revokeWarning}</p>
<div class="form-actions">
  ${postButton(appPath(id, `/secrets/${encodeURIComponent(secret.id)}/revoke`), csrf, 'Revoke the secret', { danger: true })}
  <a href="${appPath(id, '/credentials')}">Keep it</a>
</div>`);
}
