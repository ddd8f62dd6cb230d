import type { ClientStatus } from '../../../adapters/store.js';
import { flash } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { AppSummary } from '../app-summary.js';
import { STATUS_TEXT } from './app-messages.js';
import { when } from '../../web/instants.js';

/** The sections of an app's pages, each its own page (a short form or list each, easy with a keyboard). */
export type AppSection = 'overview' | 'credentials' | 'scopes' | 'launch' | 'logout' | 'team' | 'schools' | 'history' | 'live';

export const SECTIONS: { id: AppSection; label: string; path: string }[] = [
  { id: 'overview', label: 'Overview', path: '' },
  { id: 'credentials', label: 'Credentials', path: '/credentials' },
  { id: 'scopes', label: 'Scopes', path: '/scopes' },
  { id: 'launch', label: 'Dashboard launch', path: '/initiate-login-uri' },
  { id: 'logout', label: 'Logout URL', path: '/logout-url' },
  { id: 'team', label: 'Team', path: '/team' },
  { id: 'schools', label: 'Schools', path: '/schools' },
  { id: 'history', label: 'History', path: '/history' },
  { id: 'live', label: 'Go live', path: '/go-live' },
];

/** The address of an app's page (`rest` for actions below it). */
export const appPath = (clientId: string, rest = '') => `/developer/apps/${encodeURIComponent(clientId)}${rest}`;
export const sectionPath = (clientId: string, section: AppSection) => appPath(clientId, SECTIONS.find((s) => s.id === section)!.path);

/** A status as a badge: words and colour together (colour alone tells nothing to some people). */
export const statusBadge = (status: ClientStatus) => html`<span class="status-badge status-${status}">${STATUS_TEXT[status].label}</span>`;

/** An instant as people read it (src/web/instants.ts). */
export { when };



/**
 * The frame of every page of one app: a way back to the list, the app's name and status, the sections as
 * tabs (the current one marked for screen readers), the one-time message, then the section itself.
 */
export function appFrame(app: AppSummary, section: AppSection | undefined, heading: string, content: Raw, message?: string): Raw {
  const { client } = app;
  return html`<div class="app-page">
<p class="app-back"><a href="/developer">← All apps</a></p>
<div class="app-head">
  <h1>${client.name}</h1>
  ${statusBadge(client.status)}
</div>
<nav class="app-tabs" aria-label="App settings">
  <ul class="scroll-strip">${SECTIONS.map((s) => html`<li><a href="${appPath(client.clientId, s.path)}"${s.id === section ? html` aria-current="page"` : ''}>${s.label}</a></li>`)}</ul>
</nav>
${flash(message)}
<section class="app-section" aria-labelledby="section-heading">
<h2 id="section-heading">${heading}</h2>
${content}
</section>
</div>`;
}
