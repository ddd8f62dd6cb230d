import { html } from '../web/html.js';
import { codeBlock } from '../web/components.js';
import { type DocSection, docsTable } from './section.js';

export const errorsSection: DocSection = {
  id: 'errors',
  title: 'Errors',
  body: () => html`
<h3 id="errors-authorize">At the authorization endpoint</h3>
<p>Most errors come back to your callback URL as <code>error</code> and <code>error_description</code>, with your
<code>state</code>: <code>invalid_request</code> (a parameter missing, repeated, too long, or an unknown
<code>organisation</code>), <code>unsupported_response_type</code>, <code>unauthorized_client</code> (a
<code>response_type</code> your app has not registered), <code>invalid_scope</code> (no scope and no
default scopes), <code>access_denied</code> (the user chose "Cancel"), <code>login_required</code>
(<code>prompt=none</code> and no usable session). An unknown <code>client_id</code> or a <code>redirect_uri</code>
that is not registered is never redirected to: the user sees an error page, and nothing reaches your app.
A network address that starts a very large number of sign-ins is answered <code>429</code> with
<code>Retry-After</code> for a while.</p>

<h3 id="errors-token">At the token endpoint</h3>
${docsTable('Token endpoint errors', ['Status', { code: 'error' }, 'Meaning'], [
  ['401', html`<code>invalid_client</code>`, html`Wrong, revoked or expired secret, unknown client, or no HTTP Basic authentication (with <code>WWW-Authenticate: Basic</code>).`],
  ['400', html`<code>invalid_grant</code>`, html`The code is expired, used already, issued to another client or for another <code>redirect_uri</code>; or the refresh token is retired or revoked. Start a new sign-in.`],
  ['400', html`<code>invalid_request</code>`, 'A parameter is missing or repeated, or a client secret was sent in the URL, or in the body beside HTTP Basic (a secret in the body alone is no client authentication: 401 above).'],
  ['400', html`<code>unsupported_grant_type</code>`, html`Only <code>authorization_code</code> and <code>refresh_token</code>.`],
  ['503', html`<code>temporarily_unavailable</code>`, html`Lanyard cannot reach its store for a moment: retry after <code>Retry-After</code> seconds.`],
])}

<h3 id="errors-api">In the developer API</h3>
<p>Every error has one shape, with the status code that fits: <code>invalid_request</code> (400),
<code>unauthenticated</code> or <code>invalid_token</code> (401: a missing, expired or revoked API token),
<code>forbidden</code> (403), <code>not_found</code> (404 — also for an app whose team you are not in),
<code>conflict</code> (409), <code>temporarily_unavailable</code> (503). A refused input names each field with a
JSON pointer:</p>
${codeBlock(`HTTP/1.1 400 Bad Request
Content-Type: application/json; charset=utf-8

{
  "error": "invalid_request",
  "error_description": "A callback URL must use https://. Plain http:// is allowed only on your own machine: 127.0.0.1, [::1] or localhost.",
  "fields": [
    { "path": "/redirect_uri", "message": "A callback URL must use https://. Plain http:// is allowed only on your own machine: 127.0.0.1, [::1] or localhost." }
  ]
}`, 'A developer API error')}
`,
};
