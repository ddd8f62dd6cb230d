import { ROUTES } from '../routes.js';
import { slashed } from '../web/components.js';
import { html } from '../web/html.js';
import { type DocSection, docsTable } from './section.js';

export const overviewSection: DocSection = {
  id: 'overview',
  title: 'Overview',
  body: ({ issuer }) => html`
<p>Lanyard is an OAuth 2.0 authorization server and OpenID Connect provider for schools. Pupils and staff sign
in at Lanyard — with an emoji password, a magic badge (a QR code) or a username and password — and your app
receives an authorization code, exchanges it for tokens, and gets a signed ID token that says who the user is.</p>
<p>Any certified OpenID Connect client library works. Point it at the issuer ${slashed(issuer)}: it finds
everything else in the discovery document.</p>
${docsTable("Lanyard’s endpoints", ['What', 'Where'], [
  ['Issuer', slashed(issuer)],
  ['Discovery document', html`<a href="${ROUTES.discovery}">${slashed(ROUTES.discovery)}</a>`],
  ['Key set (JWKS)', html`<a href="${ROUTES.jwks}">${slashed(ROUTES.jwks)}</a>`],
  ['Authorization', html`<code>GET ${ROUTES.authorization}</code>`],
  ['Token', html`<code>POST ${ROUTES.token}</code> (HTTP Basic client authentication)`],
  ['Userinfo', html`<code>GET ${ROUTES.userinfo}</code> (Bearer access token)`],
  ['Revocation', html`<code>POST ${ROUTES.revocation}</code>`],
  ['Logout', slashed(`GET ${ROUTES.logout}?client_id=…`)],
  ['Developer area', html`<a href="/developer">${slashed('/developer')}</a>`],
  ['Developer API', html`${slashed('/developer/api')}, described by <a href="/developer/api/openapi.json">${slashed('/developer/api/openapi.json')}</a>`],
  ['School API (for schools’ staff)', html`${slashed('/school/api')}, described by <a href="/school/api/openapi.json">${slashed('/school/api/openapi.json')}</a>`],
])}
<p>The path from nothing to real users: <a href="#account">get a developer account</a>,
<a href="#register">register your app</a>, build <a href="#flow">the sign-in flow</a> and try it against
<a href="#sandbox">the sandbox school</a>, then <a href="#going-live">ask to go live</a>.</p>
`,
};
