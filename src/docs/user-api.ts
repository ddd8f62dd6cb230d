import { REALM } from '../api/errors.js';
import { OPENAPI_PATH } from '../api/index.js';
import { USER_READ_SCOPES } from '../api/user-route.js';
import { slashed } from '../web/components.js';
import { html } from '../web/html.js';
import { codeBlock } from '../web/components.js';
import { type DocSection, docsTable } from './section.js';

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
when the ID token arrives: ${slashed('GET /api/user')}. It answers JSON with the same values as the
<a href="#claims">ID token’s claims</a>, plus the user’s username and school.</p>
${codeBlock(`curl -H 'Authorization: Bearer ACCESS_TOKEN' ${issuer}/api/user`, 'Reading the user with curl')}
${codeBlock(PUPIL_EXAMPLE, 'The answer for a pupil without an email address')}
${docsTable('Fields of the user', ['Field', 'Content', 'Present'], [
  [html`<code>id</code>`, html`the user’s stable id: the ID token’s <code>sub</code>`, 'always'],
  [html`<code>type</code>`, html`user type: <code>student</code>, <code>employee</code>, <code>admin</code>, …`, 'always'],
  [html`<code>username</code>`, 'the name the user signs in with (unique within their school only)', 'always'],
  [html`<code>given_name</code>, <code>family_name</code>`, 'first and last name', 'always'],
  [html`<code>email</code>`, 'email address', 'when the school has one'],
  [html`<code>organisation</code>`, html`the school: <code>id</code>, <code>slug</code>, <code>name</code>`, 'always'],
  [html`<code>service_providers.google.email</code>`, 'the matched Google account', 'when matched'],
  [html`<code>service_providers.microsoft.email</code>`, 'the matched Microsoft account', 'when matched'],
  [html`<code>service_providers.roster.id</code>`, 'the person’s id in the school-data provider’s system', 'when matched'],
])}
<p>A value the user does not have is left out, never <code>null</code>; <code>service_providers</code> is left out
when nothing is matched. Every answer is <code>Cache-Control: no-store</code>.</p>

<h3 id="user-api-tokens">Which tokens work</h3>
<p>An access token Lanyard issued for a user to your app, sent in the <code>Authorization</code> header as
<code>Bearer</code>, whose scopes include ${USER_READ_SCOPES.map((s, i) => html`${i ? ' or ' : ''}<code>${s}</code>`)}:</p>
<ul>
  <li>from a sign-in with <code>scope=openid</code> (the usual one), or</li>
  <li>from a sign-in that asks only for API scopes, without an ID token: add <code>user:read</code>
  (<code>scope=user:read</code>, or among your app’s <a href="#default-scopes">default scopes</a>).</li>
</ul>
<p>Not an ID token, not a refresh token, and never in the URL or a request body: a token in an
<code>access_token</code> query parameter is refused even when the header is sent too (it may already be in a log), so replace
it. A token stops working when it expires (24 hours: <a href="#refresh">refresh it</a>), when it is revoked, and
at once when the user is suspended, deleted or signed out everywhere by their school: then sign the user in again.</p>

<h3 id="user-api-errors">Errors</h3>
<p>The body is <code>{ "error": "…", "error_description": "…" }</code>; 401 and 403 also carry the
<code>WWW-Authenticate</code> challenge of RFC 6750.</p>
${docsTable('User API errors', ['Status', { code: 'error' }, 'Meaning'], [
  ['401', html`<code>unauthenticated</code>`, html`No token: <code>WWW-Authenticate: Bearer realm="${REALM}"</code>.`],
  ['401', html`<code>invalid_token</code>`, 'The token is malformed, unknown, expired or revoked, for another audience, not issued for a user, or the user no longer signs in. Refresh it or sign the user in again.'],
  ['403', html`<code>insufficient_scope</code>`, html`A valid token with neither scope: <code>WWW-Authenticate: Bearer …, error="insufficient_scope", scope="openid user:read"</code>.`],
  ['400', html`<code>invalid_request</code>`, 'A token in the URL, or a request body.'],
  ['503', html`<code>temporarily_unavailable</code>`, html`Lanyard cannot reach its store for a moment: retry after <code>Retry-After</code> seconds.`],
])}
<p>The API is described by an OpenAPI 3.1 document: <a href="${OPENAPI_PATH}">${slashed(OPENAPI_PATH)}</a>.</p>
`,
};
