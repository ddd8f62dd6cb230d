import { OPENAPI_PATH } from '../api/index.js';
import { REALM } from '../api/errors.js';
import { USER_READ_SCOPES } from '../api/user-route.js';
import { html } from '../web/html.js';
import { codeBlock, type DocSection } from './section.js';

/** A pupil of the demo school at GET /api/user (the shape of src/api/schemas.ts → User). */
const PUPIL_EXAMPLE = `{
  "id": "u816124103448623",
  "type": "student",
  "username": "pupil",
  "given_name": "Pip",
  "family_name": "Pupil",
  "organisation": { "id": "o123456789012345", "slug": "demo-school", "name": "Demo School" },
  "service_providers": {
    "google": { "email": "pupil@demo-school-google.example" },
    "roster": { "id": "roster-pupil-0001" }
  }
}`;

export const userApiSection: DocSection = {
  id: 'user-api',
  title: 'The user API',
  body: ({ issuer }) => html`
<p>With an access token from the token endpoint, your server can read the signed-in user at any time, not only
when the ID token arrives: <code>GET /api/user</code>. It answers JSON with the same values as the
<a href="#claims">ID token's claims</a>, plus the user's username and school.</p>
${codeBlock(`curl -H 'Authorization: Bearer ACCESS_TOKEN' ${issuer}/api/user`, 'Reading the user with curl')}
${codeBlock(PUPIL_EXAMPLE, 'The answer for a pupil without an email address')}
<div class="table-wrap" role="region" tabindex="0" aria-label="Fields of the user"><table>
  <caption class="visually-hidden">Fields of the user</caption>
  <thead><tr><th scope="col">Field</th><th scope="col">Content</th><th scope="col">Present</th></tr></thead>
  <tbody>
    <tr><td><code>id</code></td><td>the user's stable id: the ID token's <code>sub</code></td><td>always</td></tr>
    <tr><td><code>type</code></td><td>user type: <code>student</code>, <code>employee</code>, <code>admin</code>, …</td><td>always</td></tr>
    <tr><td><code>username</code></td><td>the name the user signs in with (unique within their school only)</td><td>always</td></tr>
    <tr><td><code>given_name</code>, <code>family_name</code></td><td>first and last name</td><td>always</td></tr>
    <tr><td><code>email</code></td><td>email address</td><td>when the school has one</td></tr>
    <tr><td><code>organisation</code></td><td>the school: <code>id</code>, <code>slug</code>, <code>name</code></td><td>always</td></tr>
    <tr><td><code>service_providers.google.email</code></td><td>the matched Google account</td><td>when matched</td></tr>
    <tr><td><code>service_providers.microsoft.email</code></td><td>the matched Microsoft account</td><td>when matched</td></tr>
    <tr><td><code>service_providers.roster.id</code></td><td>the person's id in the school-data provider's system</td><td>when matched</td></tr>
  </tbody>
</table></div>
<p>A value the user does not have is left out, never <code>null</code>; <code>service_providers</code> is left out
when nothing is matched. Every answer is <code>Cache-Control: no-store</code>.</p>

<h3 id="user-api-tokens">Which tokens work</h3>
<p>An access token Lanyard issued for a user to your app, sent in the <code>Authorization</code> header as
<code>Bearer</code>, whose scopes include ${USER_READ_SCOPES.map((s, i) => html`${i ? ' or ' : ''}<code>${s}</code>`)}:</p>
<ul>
  <li>from a sign-in with <code>scope=openid</code> (the usual one), or</li>
  <li>from a sign-in that asks only for API scopes, without an ID token: add <code>user:read</code>
  (<code>scope=user:read</code>, or among your app's <a href="#default-scopes">default scopes</a>).</li>
</ul>
<p>Not an ID token, not a refresh token, and never in the URL or a request body: a token in
<code>?access_token=</code> is refused even when the header is sent too (it may already be in a log), so replace
it. A token stops working when it expires (24 hours: <a href="#refresh">refresh it</a>), when it is revoked, and
at once when the user is suspended, deleted or signed out everywhere by their school: then sign the user in again.</p>

<h3 id="user-api-errors">Errors</h3>
<p>The body is <code>{ "error": "…", "error_description": "…" }</code>; 401 and 403 also carry the
<code>WWW-Authenticate</code> challenge of RFC 6750.</p>
<div class="table-wrap" role="region" tabindex="0" aria-label="User API errors"><table>
  <caption class="visually-hidden">User API errors</caption>
  <thead><tr><th scope="col">Status</th><th scope="col"><code>error</code></th><th scope="col">Meaning</th></tr></thead>
  <tbody>
    <tr><td>401</td><td><code>unauthenticated</code></td><td>No token: <code>WWW-Authenticate: Bearer realm="${REALM}"</code>.</td></tr>
    <tr><td>401</td><td><code>invalid_token</code></td><td>The token is malformed, unknown, expired or revoked, for another audience, not issued for a user, or the user no longer signs in. Refresh it or sign the user in again.</td></tr>
    <tr><td>403</td><td><code>insufficient_scope</code></td><td>A valid token with neither scope: <code>WWW-Authenticate: Bearer …, error="insufficient_scope", scope="openid user:read"</code>.</td></tr>
    <tr><td>400</td><td><code>invalid_request</code></td><td>A token in the URL, or a request body.</td></tr>
    <tr><td>503</td><td><code>temporarily_unavailable</code></td><td>Lanyard cannot reach its store for a moment: retry after <code>Retry-After</code> seconds.</td></tr>
  </tbody>
</table></div>
<p>The API is described by an OpenAPI 3.1 document: <a href="${OPENAPI_PATH}"><code>${OPENAPI_PATH}</code></a>.</p>
`,
};
