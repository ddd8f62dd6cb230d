import { html } from '../web/html.js';
import type { DocSection } from './section.js';

export const claimsSection: DocSection = {
  id: 'claims',
  title: 'ID token claims',
  body: ({ issuer, claims }) => html`
<div class="table-wrap" role="region" tabindex="0" aria-label="Claims in the ID token"><table>
  <caption class="visually-hidden">Claims in the ID token</caption>
  <thead><tr><th scope="col">Claim</th><th scope="col">Content</th><th scope="col">Present</th></tr></thead>
  <tbody>
    <tr><td><code>iss</code></td><td>the issuer, <code>${issuer}</code></td><td>always</td></tr>
    <tr><td><code>sub</code></td><td>the user's stable id: a letter followed by digits, e.g. <code>u816124103448623</code></td><td>always</td></tr>
    <tr><td><code>aud</code></td><td>your <code>client_id</code></td><td>always</td></tr>
    <tr><td><code>exp</code>, <code>iat</code></td><td>Unix time, seconds</td><td>always</td></tr>
    <tr><td><code>nonce</code></td><td>the request's <code>nonce</code>, unchanged</td><td>when one was sent</td></tr>
    <tr><td><code>given_name</code>, <code>family_name</code></td><td>first and last name</td><td>always</td></tr>
    <tr><td><code>type</code></td><td>user type: <code>student</code>, <code>employee</code>, <code>admin</code>, …</td><td>always</td></tr>
    <tr><td><code>email</code></td><td>email address</td><td>when the school has one</td></tr>
    <tr><td><code>${claims.googleEmail}</code></td><td>email of the user's matched Google account</td><td>when matched</td></tr>
    <tr><td><code>${claims.microsoftEmail}</code></td><td>email of the user's matched Microsoft account</td><td>when matched</td></tr>
    <tr><td><code>${claims.rosterId}</code></td><td>the person's id in the school-data provider's system (its <code>data.id</code>)</td><td>when matched</td></tr>
  </tbody>
</table></div>
<p>A claim that does not apply is left out, never <code>null</code>. Many pupils have no email address: do not
require one. The sandbox school's test users cover each case (one has an email, one a matched Google account,
one a roster id).</p>
`,
};
