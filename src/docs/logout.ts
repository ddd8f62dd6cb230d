import { ROUTES } from '../provider/paths.js';
import { html } from '../web/html.js';
import { codeBlock, type DocSection } from './section.js';

export const logoutSection: DocSection = {
  id: 'logout',
  title: 'Logout',
  body: ({ issuer }) => html`
<p>To sign the user out of Lanyard too (shared classroom computers!), end your own session, then send the
browser to:</p>
${codeBlock(`${issuer}${ROUTES.logout}?client_id=YOUR_CLIENT_ID`, 'The logout URL')}
<p>Lanyard ends its session in that browser and redirects (303) straight to the app's registered
<a href="#logout-url">logout URL</a>. Tokens already issued stay valid until they expire or are
<a href="#refresh">revoked</a>. An unknown <code>client_id</code>, or an app without a logout URL, gets an error
page instead of a redirect.</p>
`,
};
