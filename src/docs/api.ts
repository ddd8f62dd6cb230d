import { slashed } from '../web/components.js';
import { html } from '../web/html.js';
import { codeBlock } from '../web/components.js';
import { type DocSection, docsTable } from './section.js';

/** Every endpoint of /developer/api, as the OpenAPI document lists them (it is the reference). */
const ENDPOINTS: readonly [method: string, path: string, what: string][] = [
  ['GET', '/developer/api/me', 'your developer account'],
  ['GET', '/developer/api/tokens', 'your API tokens (never their secrets)'],
  ['POST', '/developer/api/tokens', 'create an API token {label, expires_in_days?, password | totp_code}: the token is in this answer only'],
  ['DELETE', '/developer/api/tokens/{token_id}', 'revoke an API token'],
  ['GET', '/developer/api/apps', 'the apps whose team you are in'],
  ['POST', '/developer/api/apps', 'register an app {name, description?, homepage_url?, logo_url?}'],
  ['GET', '/developer/api/apps/{client_id}', 'one app'],
  ['PATCH', '/developer/api/apps/{client_id}', 'change its details'],
  ['DELETE', '/developer/api/apps/{client_id}', 'delete it (owner only): revokes its grants and tokens'],
  ['POST', '/developer/api/apps/{client_id}/redirect_uris', 'add a callback URL {redirect_uri}'],
  ['DELETE', '/developer/api/apps/{client_id}/redirect_uris?redirect_uri=…', 'remove a callback URL'],
  ['GET', '/developer/api/apps/{client_id}/secrets', 'its client secrets (label, created, last used, hint)'],
  ['POST', '/developer/api/apps/{client_id}/secrets', 'create a secret {label, expires_at?}: the secret is in this answer only'],
  ['DELETE', '/developer/api/apps/{client_id}/secrets/{secret_id}', 'revoke a secret, at once'],
  ['PUT', '/developer/api/apps/{client_id}/default_scopes', 'set the default scopes {default_scopes}'],
  ['PUT', '/developer/api/apps/{client_id}/initiate_login_uri', 'set where dashboard launches start {initiate_login_uri}'],
  ['DELETE', '/developer/api/apps/{client_id}/initiate_login_uri', 'clear it: launches bring a code to the first callback URL'],
  ['PUT', '/developer/api/apps/{client_id}/logout_url', 'set the logout URL {logout_url}'],
  ['DELETE', '/developer/api/apps/{client_id}/logout_url', 'clear the logout URL'],
  ['GET', '/developer/api/apps/{client_id}/team', 'its team'],
  ['POST', '/developer/api/apps/{client_id}/team', 'invite a developer by email (owner only) {email}: they join when they accept'],
  ['DELETE', '/developer/api/apps/{client_id}/team/{developer_id}', 'remove a team member, or withdraw an invitation (an address without an account: developer_id address:<email>)'],
  ['GET', '/developer/api/apps/{client_id}/history', 'its changes, newest first'],
  ['GET', '/developer/api/invitations', 'your invitations to apps’ teams, not yet answered'],
  ['POST', '/developer/api/invitations/{client_id}/accept', 'accept one: you join the team'],
  ['POST', '/developer/api/invitations/{client_id}/decline', 'decline one'],
  ['POST', '/developer/api/apps/{client_id}/go-live', 'request to go live'],
  ['GET', '/developer/api/sandbox', 'the sandbox school and its test users’ credentials'],
  ['GET', '/developer/api/openapi.json', 'the OpenAPI 3.1 document (no token needed)'],
];

export const apiSection: DocSection = {
  id: 'api',
  title: 'The developer API',
  body: ({ issuer }) => html`
<p>Everything the developer area’s pages do is also a JSON API under ${slashed('/developer/api')}, for scripts
and deployments. It is described by an OpenAPI 3.1 document generated from the same schemas that validate the
requests: <a href="/developer/api/openapi.json">${slashed('/developer/api/openapi.json')}</a>. Load it into any
OpenAPI tool to browse it or generate a client.</p>

<h3 id="api-tokens">Authentication</h3>
<p>Create a personal API token on <a href="/developer/account/tokens">your account’s tokens page</a> (or with
${slashed('POST /developer/api/tokens')}, with your <code>password</code>). Making one asks for your password again,
or a fresh code from your authenticator app when two-step sign-in is on (<code>totp_code</code> in the API). It
looks like <code>lyd_…</code>, is shown once (Lanyard keeps only a hash), lives 30 days unless you choose up to
90, and can be revoked at any time; a token can create tokens that expire before it does, never later. Every
token of your account is revoked when you change your password or your two-step sign-in, or sign out
everywhere: make new ones afterwards. Send it as a Bearer token; it acts as you, on the apps whose team you
are in. Keep it in a secret store, like a client secret.</p>
${codeBlock(`export LANYARD_TOKEN=lyd_…   # from /developer/account/tokens

curl -H "Authorization: Bearer $LANYARD_TOKEN" ${issuer}/developer/api/me
curl -H "Authorization: Bearer $LANYARD_TOKEN" ${issuer}/developer/api/apps`, 'Calling the developer API')}

<h3 id="api-endpoints">Endpoints</h3>
${docsTable('Developer API endpoints', ['Method', 'Path', 'What'], ENDPOINTS.map(([method, path, what]) => [html`<code>${method}</code>`, slashed(path), what]))}
<p>Bodies are JSON (${slashed('Content-Type: application/json')}) with exactly the fields listed: an unknown field
is refused rather than ignored. Answers that contain a secret (a new client secret, a new API token) carry
<code>Cache-Control: no-store</code>.</p>

<h3 id="api-example">Example: rotate a client secret from a deployment script</h3>
${codeBlock(`# 1. a second secret (the answer is the only time you see it)
curl -X POST ${issuer}/developer/api/apps/$CLIENT_ID/secrets \\
  -H "Authorization: Bearer $LANYARD_TOKEN" -H "Content-Type: application/json" \\
  -d '{"label": "Production, rotated in May"}'
# {"id":"…","secret":"…","label":"Production, rotated in May","hint":"…","created_at":"…"}

# 2. deploy the new secret to every server, then
# 3. revoke the old one
curl -X DELETE ${issuer}/developer/api/apps/$CLIENT_ID/secrets/$OLD_SECRET_ID \\
  -H "Authorization: Bearer $LANYARD_TOKEN"

# and, for instance, keep openid as the default scope and set the logout URL
curl -X PUT ${issuer}/developer/api/apps/$CLIENT_ID/default_scopes \\
  -H "Authorization: Bearer $LANYARD_TOKEN" -H "Content-Type: application/json" \\
  -d '{"default_scopes": ["openid"]}'
curl -X PUT ${issuer}/developer/api/apps/$CLIENT_ID/logout_url \\
  -H "Authorization: Bearer $LANYARD_TOKEN" -H "Content-Type: application/json" \\
  -d '{"logout_url": "https://tables.example.com/signed-out"}'`, 'Rotating a client secret with the developer API')}
`,
};
