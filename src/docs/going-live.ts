import { slashed } from '../web/components.js';
import { html } from '../web/html.js';
import type { DocSection } from './section.js';

export const goingLiveSection: DocSection = {
  id: 'going-live',
  title: 'Going live',
  body: () => html`
<p>When your app works against the sandbox school, choose <strong>Ask to go live</strong> on its page (or
${slashed('POST /developer/api/apps/{client_id}/go-live')}). The app needs at least one callback URL. It joins a
queue (status <code>pending</code>) and the people who run Lanyard review it. While it waits, it still signs in
only the sandbox school.</p>
<ul>
  <li><strong>Approved:</strong> the app is <code>live</code> (at once, on every instance). It signs in the users
  of the schools that use it. Ask a school on the app’s <strong>Schools</strong> page (or
  ${slashed('POST /developer/api/apps/{client_id}/schools')}), with a short note: the school’s admins see your
  request in their school console, with what your app receives (its default scopes and their claims), and
  approve it (it appears on their users’ <a href="#launch">dashboards</a>) or decline it with a reason you read
  on the same page.</li>
  <li><strong>Declined:</strong> the app is back in development, with a note from the reviewer on its page
  saying why. Change what it asks, and request again.</li>
</ul>
<p>Both decisions are in the app’s history. A live app keeps its client ID, secrets and settings; but it no
longer signs in the sandbox school’s test users: their credentials are shared by every developer, so only apps
in development accept them. To keep testing changes, register a second app for development.</p>
`,
};
