import { ROUTES } from '../provider/paths.js';
import { html } from '../web/html.js';
import type { DocSection } from './section.js';

export const overviewSection: DocSection = {
  id: 'overview',
  title: 'Overview',
  body: ({ issuer }) => html`
<p>Lanyard is an OAuth 2.0 authorization server and OpenID Connect provider for schools. Pupils and staff sign
in at Lanyard — with an emoji password, a magic badge (a QR code) or a username and password — and your app
receives an authorization code, exchanges it for tokens, and gets a signed ID token that says who the user is.</p>
<p>Any certified OpenID Connect client library works. Point it at the issuer <code>${issuer}</code>: it finds
everything else in the discovery document.</p>
<div class="table-wrap" role="region" tabindex="0" aria-label="Lanyard's endpoints"><table>
  <caption class="visually-hidden">Lanyard's endpoints</caption>
  <thead><tr><th scope="col">What</th><th scope="col">Where</th></tr></thead>
  <tbody>
    <tr><td>Issuer</td><td><code>${issuer}</code></td></tr>
    <tr><td>Discovery document</td><td><a href="${ROUTES.discovery}"><code>${ROUTES.discovery}</code></a></td></tr>
    <tr><td>Key set (JWKS)</td><td><a href="${ROUTES.jwks}"><code>${ROUTES.jwks}</code></a></td></tr>
    <tr><td>Authorization</td><td><code>GET ${ROUTES.authorization}</code></td></tr>
    <tr><td>Token</td><td><code>POST ${ROUTES.token}</code> (HTTP Basic client authentication)</td></tr>
    <tr><td>Userinfo</td><td><code>GET ${ROUTES.userinfo}</code> (Bearer access token)</td></tr>
    <tr><td>Revocation</td><td><code>POST ${ROUTES.revocation}</code></td></tr>
    <tr><td>Logout</td><td><code>GET ${ROUTES.logout}?client_id=…</code></td></tr>
    <tr><td>Developer area</td><td><a href="/developer"><code>/developer</code></a></td></tr>
    <tr><td>Developer API</td><td><code>/developer/api</code>, described by <a href="/developer/api/openapi.json"><code>/developer/api/openapi.json</code></a></td></tr>
  </tbody>
</table></div>
<p>The path from nothing to real users: <a href="#account">get a developer account</a>,
<a href="#register">register your app</a>, build <a href="#flow">the sign-in flow</a> and try it against
<a href="#sandbox">the sandbox school</a>, then <a href="#going-live">ask to go live</a>.</p>
`,
};
