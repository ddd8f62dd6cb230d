import type { StoredClientSecret } from '../../../adapters/store.js';
import { COPY_SCRIPT, copyable, csrfField, problemsSummary, slashed } from '../../web/components.js';
import { logoPath } from '../../clients/logo-image.js';
import { html, type Raw } from '../../web/html.js';
import type { AppSummary } from '../app-summary.js';
import { detailFields, type RegisterForm } from './app-list-view.js';
import { STATUS_TEXT } from './app-messages.js';
import { appFrame, appPath, sectionPath } from './app-parts.js';

export interface OverviewData {
  app: AppSummary;
  secrets: StoredClientSecret[];
  issuer: string;
  now: Date;
  csrf: string;
  message?: string | undefined;
  form?: RegisterForm;
  errors?: Record<string, string>;
  formError?: string | undefined;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** GET /developer/apps/:clientId: what the app is, what to do next, where to point it, and its details. */
export function overviewView(d: OverviewData): Raw {
  const { client, role } = d.app;
  const id = client.clientId;
  const active = d.secrets.filter((s) => !s.expiresAt || Date.parse(s.expiresAt) > d.now.getTime()).length;
  const form: RegisterForm = d.form ?? {
    name: client.name, description: client.description ?? '', homepage_url: client.homepageUrl ?? '', logo_url: client.logoUrl ?? '',
  };
  const setup: { done: boolean; text: string; href: string; link: string }[] = [
    { done: client.redirectUris.length > 0, text: plural(client.redirectUris.length, 'callback URL', 'callback URLs'), href: sectionPath(id, 'credentials'), link: 'Callback URLs' },
    { done: active > 0, text: plural(active, 'active secret', 'active secrets'), href: `${sectionPath(id, 'credentials')}#secrets`, link: 'Secrets' },
    { done: client.defaultScopes.includes('openid'), text: client.defaultScopes.length ? `Default scopes: ${client.defaultScopes.join(' ')}` : 'No default scopes', href: sectionPath(id, 'scopes'), link: 'Scopes' },
    {
      done: !!client.initiateLoginUri, text: client.initiateLoginUri ? 'Initiate login URI set' : 'No initiate login URI: dashboard launches bring a code to your first callback URL',
      href: sectionPath(id, 'launch'), link: 'Dashboard launch',
    },
    { done: !!client.logoutUrl, text: client.logoutUrl ? 'Logout URL set' : 'No logout URL', href: sectionPath(id, 'logout'), link: 'Logout URL' },
  ];
  return appFrame(d.app, 'overview', 'Overview', html`
<dl class="app-facts">
  <div class="app-fact-wide"><dt>client_id</dt><dd>${copyable('client-id', id, 'client_id')}</dd></div>
  <div class="app-fact-wide"><dt>Status</dt><dd><p class="status-meaning">${STATUS_TEXT[client.status].meaning}</p>
    ${client.status !== 'live' ? html`<p class="status-links"><a href="/developer/sandbox">Sandbox school: test users and how to sign in</a>
      ${client.status === 'development' ? html` · <a href="${sectionPath(id, 'live')}">Ask to go live</a>` : ''}</p>` : ''}
    ${client.reviewNote ? html`<div class="review-note"><p><strong>Your last request to go live was declined.</strong> The operator wrote:</p><blockquote>${client.reviewNote}</blockquote></div>` : ''}
  </dd></div>
</dl>

<h3>Set-up</h3>
<ul class="setup-list">
  ${setup.map((s) => html`<li class="${s.done ? 'setup-done' : 'setup-todo'}"><span class="setup-mark" aria-hidden="true">${s.done ? '✓' : '!'}</span>
    <span><span class="visually-hidden">${s.done ? 'Done:' : 'To do:'}</span> ${s.text} — <a href="${s.href}">${s.link}</a></span></li>`)}
</ul>

<h3>Where your app talks to Lanyard</h3>
<dl class="app-facts endpoints">
  <div><dt>Issuer</dt><dd>${slashed(d.issuer)}</dd></div>
  <div><dt>Discovery document</dt><dd>${slashed(`${d.issuer}/.well-known/openid-configuration`)}</dd></div>
  <div><dt>Authorization endpoint</dt><dd>${slashed(`${d.issuer}/oauth/authorize`)}</dd></div>
  <div><dt>Token endpoint (HTTP Basic: client_id and a secret)</dt><dd>${slashed(`${d.issuer}/oauth/token`)}</dd></div>
</dl>
<p><a href="/docs">Read the developer guide</a> for the whole flow, with examples.</p>

<h3 id="details">Details</h3>
${logoPath(client) ? html`<p class="logo-copy"><img src="${logoPath(client)}" alt="" width="48" height="48"> The logo as schools see it: Lanyard’s copy, fetched when the logo URL was set. Save the URL again to fetch it again.</p>`
    : client.logoUrl ? html`<p class="logo-copy">Lanyard has no copy of this logo yet, so schools see the app’s initials: save the details to fetch it.</p>` : ''}
${problemsSummary(d.formError, d.errors)}
<form method="post" action="${appPath(id, '/details')}" class="app-form" novalidate>
  ${csrfField(d.csrf)}
  ${detailFields(form, d.errors ?? {}, false)}
  <button type="submit">Save details</button>
</form>

${role === 'owner' ? html`<div class="danger-zone">
  <h3>Delete the app</h3>
  <p>Removes the app, its secrets and its team, and signs its users out of it.</p>
  <a class="button-link remove-link" href="${appPath(id, '/delete')}">Delete this app…</a>
</div>` : ''}
${COPY_SCRIPT}`, d.message);
}
