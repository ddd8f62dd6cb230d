import { APP_LIMITS } from '../developer/app-input.js';
import { MAX_URL_LENGTH } from '../clients/callback-url.js';
import { ROUTES } from '../routes.js';
import { slashed } from '../web/components.js';
import { html } from '../web/html.js';
import { codeBlock } from '../web/components.js';
import { type DocSection } from './section.js';

export const registerSection: DocSection = {
  id: 'register',
  title: 'Registering and configuring an app',
  body: ({ issuer }) => html`
<p>In <a href="/developer">the developer area</a>, choose <a href="/developer/apps/new">Register an app</a>: give
its name (people see it when they sign in), a description, its homepage and optionally a logo URL: Lanyard
fetches the logo once, when you save it (a PNG, JPEG, GIF or WebP image of at most 256 KiB at a public
<code>https://</code> address; not SVG), and schools see that copy, so change the URL to change the logo. Lanyard
assigns a random <code>client_id</code>. Everything below is on the app’s page,
${slashed('/developer/apps/<client_id>')}, and in <a href="#api">the developer API</a>. A change applies
at once, on every Lanyard instance.</p>

<h3 id="callback-urls">Callback URLs</h3>
<p>The <code>redirect_uri</code> of an authorization request must equal one of the app’s callback URLs
<em>exactly</em>, character for character: no prefix matching, no wildcards, no normalisation. Register each
URL as your app sends it. A callback URL</p>
<ul>
  <li>uses ${slashed('https://')} — plain ${slashed('http://')} only on your own machine
  (<code>localhost</code>, <code>127.0.0.1</code> or <code>[::1]</code>, any port);</li>
  <li>has no fragment (<code>#…</code>): the code is sent in the query;</li>
  <li>has no wildcard (<code>*</code>), no user name or password before the host, no spaces or backslashes;</li>
  <li>is at most ${MAX_URL_LENGTH} characters long. An app can have up to ${APP_LIMITS.callbacks}.</li>
</ul>
<p>Each refusal says what to change. Register one per environment, e.g.
${slashed('http://localhost:8080/callback')} for development and ${slashed('https://app.example.com/auth/callback')}
in production.</p>

<h3 id="secrets">Client secrets and rotating them</h3>
<p>Your app authenticates at the token endpoint with its <code>client_id</code> and a client secret (HTTP
Basic). Create one with a label saying where it is used ("Production server"). The secret — 256 random bits —
is shown <strong>exactly once</strong>, with a copy button: Lanyard keeps only a hash, so it cannot show it
again. The list shows each secret’s label, when it was created and last used, and a short hint (its last
characters) to tell them apart. A secret can have an expiry; after it, it no longer authenticates.</p>
<p>An app can hold several secrets at once (up to ${APP_LIMITS.secrets}), so a secret is rotated without downtime:</p>
<ol>
  <li>create a second secret;</li>
  <li>deploy it to your app (every server), and check its "last used" time moves;</li>
  <li>revoke the first secret. It answers <code>401 invalid_client</code> at once, on every instance.</li>
</ol>
<p>Revoke a secret the moment you suspect it has leaked. Never put a secret in a URL, in front-end code or in a
mobile app: the token request happens between your server and Lanyard.</p>

<h3 id="default-scopes">Default scopes</h3>
<p>Default scopes are used when an authorization request sends <strong>no</strong> <code>scope</code> at all.
That is what happens when a user launches your app from their school dashboard (a flow that starts at Lanyard,
not at your app). New apps have <code>openid</code> as their default scope, and you should keep it: with
<code>openid</code> the token response carries an <code>id_token</code> naming the user; without it, a launch
gives your app only an access token and a refresh token, and no ID token. A request that does send a
<code>scope</code> gets exactly what it asks for. An app with no default scopes, asked without a scope, gets
<code>invalid_scope</code>.</p>

<h3 id="initiate-login-uri">Initiate login URI (dashboard launches)</h3>
<p>Optional. When a user opens your app from their Lanyard dashboard, Lanyard sends the browser to your app’s
<code>initiate_login_uri</code> with <code>iss</code> (Lanyard’s issuer, ${slashed(issuer)}),
<code>login_hint</code> and <code>target_link_uri</code> in the query (OpenID Connect Core 1.0 §4,
third-party initiated login). Check <code>iss</code>, then start a normal sign-in from it: an authorization
request with your own <code>state</code> and <code>nonce</code>, passing the <code>login_hint</code> on; after
sign-in, open <code>target_link_uri</code> if it is one of your app’s pages. Without an initiate login URI, a
launch brings an authorization code to your <strong>first</strong> callback URL, with your default scopes and
no <code>state</code> or <code>nonce</code>. Set it, change it or clear it on the app’s page (Dashboard
launch) or with <code>PUT</code>/${slashed('DELETE /developer/api/apps/{client_id}/initiate_login_uri')}; the
same URL rules as callback URLs apply (https, http only on loopback, no fragment, no wildcard, no user name or
password, at most ${MAX_URL_LENGTH} characters).</p>

<h3 id="logout-url">Logout URL</h3>
<p>Where ${slashed(`GET ${ROUTES.logout}?client_id=…`)} sends the browser after ending the user’s Lanyard
session (see <a href="#logout">Logout</a>). Set it, change it or clear it on the app’s page; the same URL rules
as callback URLs apply (https, http only on loopback). Without one, the logout endpoint shows an error page
for your app.</p>

<h3 id="team">Team, history and deleting an app</h3>
<p>An app belongs to a team. Its owner adds other developers by the email address of their developer account:
that sends them an invitation, which they accept or decline on their apps page (or with
${slashed('POST /developer/api/invitations/{client_id}/accept')}). Until they accept they see nothing of the app.
Lanyard gives the owner the same answer whether or not an account has the address, so if nobody accepts, check
the address with them. Inviting someone also gives the owner an invitation link, shown once: send it to them
yourself. A developer who signed themselves up (Lanyard never checked their address) accepts only by opening
it while signed in with the invited address (the API takes the link’s last part as <code>token</code>); it works
once, for 7 days. A developer whose account came from an invitation to the developer area may also accept on
their apps page. The owner sees pending invitations in the team and can withdraw them, and removes
members; a removed member loses access at once. Every change — details, callback URLs, secrets
(by label and hint, never the secret), scopes, initiate login URI, logout URL, team, going live — is kept in
the app’s history: who, what and when. Deleting an app (owner only) also revokes every grant and token issued to it.</p>

<p>For example, with the developer API (see <a href="#api">below</a>):</p>
${codeBlock(`curl -X POST ${issuer}/developer/api/apps \\
  -H "Authorization: Bearer $LANYARD_TOKEN" -H "Content-Type: application/json" \\
  -d '{"name": "Times Tables Trainer", "homepage_url": "https://tables.example.com"}'

curl -X POST ${issuer}/developer/api/apps/$CLIENT_ID/redirect_uris \\
  -H "Authorization: Bearer $LANYARD_TOKEN" -H "Content-Type: application/json" \\
  -d '{"redirect_uri": "http://localhost:8080/callback"}'

curl -X POST ${issuer}/developer/api/apps/$CLIENT_ID/secrets \\
  -H "Authorization: Bearer $LANYARD_TOKEN" -H "Content-Type: application/json" \\
  -d '{"label": "Laptop"}'`, 'Registering an app with the developer API')}
`,
};
