import type { Organisation, StoredClient, User } from '../../../adapters/store.js';
import { ROUTES } from '../../routes.js';
import { csrfField } from '../../web/components.js';
import { html } from '../../web/html.js';
import type { Translator } from '../../web/i18n/translator.js';
import { layout } from '../../web/layout.js';
import { appIcon } from './app-icon.js';

export interface DashboardView {
  user: User;
  organisation: Organisation;
  apps: StoredClient[];
  csrf: string;
  /** The page's language (the switch's, the school's or the browser's) and its address, for the language switch. */
  t: Translator;
  url: string;
}

/**
 * The signed-in user's dashboard (docs/dashboard-and-app-launch.md): who and which school, a big tile for each app the school
 * lets them use, in the school's order, and signing out. Each tile is a form that POSTs (a launch is a
 * state change, and CSRF-protected: src/dashboard/dashboard-form.ts), so it works without JavaScript and
 * from the keyboard.
 */
export function dashboardPage(v: DashboardView): string {
  const { user, organisation, apps, t } = v;
  return layout(t.t('dashboard.title', { school: organisation.name }), html`
<header class="dashboard-head">
  <div>
    <h1>${t.t('dashboard.hello', { name: user.givenName })}</h1>
    <p class="muted">${user.givenName} ${user.familyName} · ${organisation.name}</p>
  </div>
  <form method="post" action="${ROUTES.signOut}" class="inline-form">
    ${csrfField(v.csrf)}
    <button type="submit" class="secondary-button">${t.t('dashboard.signOut')}</button>
  </form>
</header>
<h2 id="apps-heading">${t.t('dashboard.yourApps')}</h2>
${apps.length ? html`<ul class="app-tiles" aria-labelledby="apps-heading">${apps.map((app) => html`
  <li><form method="post" action="${ROUTES.launch}/${encodeURIComponent(app.clientId)}">
    ${csrfField(v.csrf)}
    <button type="submit" class="app-tile">
      ${appIcon(app)}
      <span class="app-tile-name">${app.name}</span>${app.description ? html`
      <span class="app-tile-description">${app.description}</span>` : ''}
    </button>
  </form></li>`)}
</ul>` : html`<p class="empty">${t.t('dashboard.noApps', { school: organisation.name })}</p>`}
`, { wide: true, stylesheet: 'dashboard.css', t, switchUrl: v.url });
}
