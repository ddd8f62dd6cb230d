import { STATE_MAX_LENGTH } from '../provider/authorization-params.js';
import { ID_TOKEN_HINT_MAX_LENGTH } from '../provider/id-token-hint.js';
import { ROUTES } from '../routes.js';
import { slashed } from '../web/components.js';
import { html } from '../web/html.js';
import { codeBlock } from '../web/components.js';
import { type DocSection, docsTable } from './section.js';

export const logoutSection: DocSection = {
  id: 'logout',
  title: 'Logout',
  body: ({ issuer }) => html`
<p>To sign the user out of Lanyard too (shared classroom computers!), end your own session, then send the
browser to Lanyard’s logout endpoint. Your app must have a <a href="#logout-url">logout URL</a> registered:
Lanyard ends its session in that browser and redirects (303) straight to that URL, with no page in between.
Tokens already issued stay valid until they expire or are <a href="#refresh">revoked</a>. While your app is in
development, Lanyard shows a “You are signed out” page with a link to your logout URL instead, unless that URL
is on your own machine (<code>localhost</code>): it redirects straight away only for apps that have been reviewed.</p>

<h3 id="logout-client-id">By client ID</h3>
<p>The simplest form names your app:</p>
${codeBlock(`${issuer}${ROUTES.logout}?client_id=YOUR_CLIENT_ID`, 'The logout URL')}

<h3 id="logout-standard">With an OpenID Connect library</h3>
<p>The same endpoint is the discovery document’s <code>end_session_endpoint</code>, so libraries that implement
<a href="https://openid.net/specs/openid-connect-rpinitiated-1_0.html">OpenID Connect RP-Initiated Logout 1.0</a>
find it themselves. It takes these parameters, in the query of a <code>GET</code> or as an
${slashed('application/x-www-form-urlencoded')} form <code>POST</code>, each at most once:</p>
${docsTable('Logout parameters', ['Parameter', 'Required', 'Meaning'], [
  [html`<code>client_id</code>`, html`unless <code>id_token_hint</code> is sent`, html`Your app’s client ID. Sent with <code>id_token_hint</code>, it must be the app the ID token was issued to.`],
  [html`<code>id_token_hint</code>`, 'recommended', html`An ID token Lanyard issued to your app (at most ${ID_TOKEN_HINT_MAX_LENGTH} characters); it names your app. Lanyard checks its signature (a key in the key set) and its <code>iss</code>; an expired one is fine.`],
  [html`<code>post_logout_redirect_uri</code>`, 'no', 'Where to go afterwards. Only your registered logout URL is used: any other value is ignored and the browser goes to your logout URL.'],
  [html`<code>state</code>`, 'no', html`A value of yours (at most ${STATE_MAX_LENGTH} characters), returned as the <code>state</code> query parameter of the redirect, after any query your logout URL already has.`],
])}
<p>For example, with ${slashed('https://app.example.com/signed-out')} registered as the logout URL:</p>
${codeBlock(`${issuer}${ROUTES.logout}?id_token_hint=eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6…
  &post_logout_redirect_uri=https%3A%2F%2Fapp.example.com%2Fsigned-out
  &state=A_FRESH_RANDOM_VALUE`, 'A logout request with an ID token (one line in practice)')}
${codeBlock('https://app.example.com/signed-out?state=A_FRESH_RANDOM_VALUE', 'Where the browser is sent')}
<p>With Node.js and <a href="https://github.com/panva/openid-client">openid-client</a>:</p>
${codeBlock(`import * as client from 'openid-client';

const config = await client.discovery(new URL('${issuer}'), process.env.CLIENT_ID,
  process.env.CLIENT_SECRET, client.ClientSecretBasic()); // Lanyard takes client_secret_basic only

// After ending your own session: the ID token you kept from sign-in.
const url = client.buildEndSessionUrl(config, { id_token_hint: idToken, state });
response.redirect(url.href);`, 'Logout with openid-client')}
<p>A form POSTed from your site arrives without Lanyard’s session cookie (it is <code>SameSite=Lax</code>), so
Lanyard checks the request and then sends the browser on (303) to the <code>GET</code> form with your
<code>client_id</code> and <code>state</code>, where the session ends; the ID token never goes into a URL.</p>
<p>A missing, unknown or mismatched app, an app without a logout URL, an ID token Lanyard did not issue (a bad
signature, an unknown <code>kid</code>, another <code>iss</code>), or a parameter sent twice gets an error page
instead of a redirect, and the user stays signed in to Lanyard.</p>
`,
};
