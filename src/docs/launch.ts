import { ROUTES } from '../routes.js';
import { slashed } from '../web/components.js';
import { html } from '../web/html.js';
import { codeBlock } from '../web/components.js';
import { type DocSection } from './section.js';

/** How users open an app from their Lanyard dashboard, and what the app must do for each way. */
export const launchSection: DocSection = {
  id: 'launch',
  title: 'Dashboard launch',
  body: ({ issuer }) => html`
<p>Pupils and staff can sign in at Lanyard itself (${slashed(`${issuer}/`)}) and see a tile for each app their
school uses. A school uses your app once it is <a href="#going-live">live</a> and the school has approved it
(possibly for some user types only); users of other schools get <em>This app is not available at your
school</em>, and your app gets <code>error=access_denied</code>. A tap on the tile opens your app, already
signed in, in one of two ways:</p>
<h3>With an initiate login URI (recommended)</h3>
<p>Set an <a href="#initiate-login-uri">initiate login URI</a>. A launch sends the browser there (OpenID Connect
Core §4, third-party initiated login):</p>
${codeBlock(`https://your-app.example/lanyard/start?iss=${encodeURIComponent(issuer)}&login_hint=u123456789012345&target_link_uri=https%3A%2F%2Fyour-app.example%2F`, 'A launch through the initiate login URI')}
<ol>
  <li>Check that <code>iss</code> is exactly ${slashed(issuer)}; refuse anything else.</li>
  <li>Start a normal <a href="#flow">authorization request</a> with your own <code>state</code>, <code>nonce</code>
  and PKCE, passing <code>login_hint</code> on. The user is signed in at Lanyard, so the code comes back at once,
  without a sign-in screen.</li>
  <li>After the exchange, open <code>target_link_uri</code> (your app’s home page, or your site’s root), if it
  is one of your own addresses.</li>
</ol>
<h3>Without one (provider-initiated)</h3>
<p>Lanyard sends an authorization code straight to your <strong>first</strong> registered callback URL, with
your <a href="#default-scopes">default scopes</a>, and <strong>no <code>state</code> and no
<code>nonce</code></strong>:</p>
${codeBlock(`https://your-app.example/callback?code=…&iss=${encodeURIComponent(issuer)}`, 'A provider-initiated launch')}
<p>Exchange the code as usual at ${slashed(ROUTES.token)}. The token response has an <code>id_token</code>
exactly when <code>openid</code> is among your default scopes; with <code>user:read</code> instead, read the user
from the <a href="#user-api">user API</a>. Your callback must accept a code it did not ask for (there is no state
to compare; check <code>iss</code>), and must not expect a nonce in the ID token. An app without default scopes
and without an initiate login URI cannot be launched and gets no tile.</p>
`,
};
