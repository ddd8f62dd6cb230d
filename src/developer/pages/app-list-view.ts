import { csrfField, field, flash, problemsSummary, textArea } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { AppSummary } from '../app-summary.js';
import { APP_LIMITS } from '../app-input.js';
import type { TeamInvitation } from '../team-invitations.js';
import { invitationsView } from './app-invitations-view.js';
import { AM } from './app-messages.js';
import { appPath, statusBadge } from './app-parts.js';

/**
 * GET /developer: the invitations to a team waiting for an answer, then the developer's apps, each as a card
 * (readable on a phone, where a wide table is not).
 */
export function appListView(apps: AppSummary[], invitations: TeamInvitation[], csrf: string, message?: string): Raw {
  return html`<div class="app-page">
<div class="app-list-head">
  <h1>${AM.appsTitle}</h1>
  <a class="button-link" href="/developer/apps/new">Register an app</a>
</div>
<p class="muted">${AM.appsIntro}</p>
${flash(message)}
${invitationsView(invitations, csrf)}
${invitations.length ? html`<h2 class="apps-heading">${AM.yourApps}</h2>` : ''}
${apps.length === 0 ? html`<p class="empty-state">${invitations.length ? AM.noAppsButInvited : AM.noApps}</p>` : html`<ul class="app-cards" aria-label="Your apps">
  ${apps.map(({ client, role }) => html`<li class="app-card">
    <div class="app-card-head">
      <a class="app-card-name" href="${appPath(client.clientId)}">${client.name}</a>
      ${statusBadge(client.status)}
    </div>
    ${client.description ? html`<p class="app-card-description">${client.description}</p>` : ''}
    <dl class="app-card-facts">
      <div><dt>client_id</dt><dd><code>${client.clientId}</code></dd></div>
      <div><dt>Your role</dt><dd>${role === 'owner' ? 'Owner' : 'Team member'}</dd></div>
      <div><dt>Callback URLs</dt><dd>${client.redirectUris.length}</dd></div>
    </dl>
  </li>`)}
</ul>`}
</div>`;
}

export interface RegisterForm {
  name?: string;
  description?: string;
  homepage_url?: string;
  logo_url?: string;
}

/** GET/POST /developer/apps/new: name, description, homepage and an optional logo. */
export function registerView(csrf: string, form: RegisterForm = {}, errors: Record<string, string> = {}, formError?: string): Raw {
  return html`<div class="app-page">
<p class="app-back"><a href="/developer">← All apps</a></p>
<h1>${AM.registerTitle}</h1>
${problemsSummary(formError, errors)}
<p class="muted">${AM.registerIntro}</p>
<form method="post" action="/developer/apps/new" class="app-form" novalidate>
  ${csrfField(csrf)}
  ${detailFields(form, errors, true)}
  <button type="submit">Register the app</button>
</form>
</div>`;
}

/** The details fields, shared by registration and the overview's details form. */
export function detailFields(form: RegisterForm, errors: Record<string, string>, autofocus: boolean): Raw {
  return html`${field({ name: 'name', label: 'Name', value: form.name, error: errors.name, required: true, maxlength: APP_LIMITS.nameLength,
    hint: 'People see it when they sign in, so use the name they know your app by.', autofocus: autofocus || !!errors.name, autocomplete: 'off' })}
  ${textArea({ name: 'description', label: 'Description (optional)', value: form.description, error: errors.description,
    maxlength: APP_LIMITS.descriptionLength, hint: 'What the app does, in a sentence or two.' })}
  ${field({ name: 'homepage_url', label: 'Homepage (optional)', type: 'url', value: form.homepage_url, error: errors.homepage_url,
    hint: 'An https:// address, for example https://app.example.com', autocomplete: 'url' })}
  ${field({ name: 'logo_url', label: 'Logo URL (optional)', type: 'url', value: form.logo_url, error: errors.logo_url,
    hint: 'A square PNG, JPEG, GIF or WebP image of at most 256 KiB at an https:// address. Lanyard fetches it once, when you save, and shows its own copy.' })}`;
}

/** A 404 or 403 inside the area: what happened, and the way back (to the app when it may be seen, else the list). */
export function refusedView(title: string, message: string, backTo: string | undefined): Raw {
  return html`<div class="app-page">
<h1>${title}</h1>
<p>${message}</p>
<p class="status-links">${backTo ? html`<a href="${appPath(backTo)}">Back to the app</a> · ` : ''}<a href="/developer">Your apps</a></p>
</div>`;
}
