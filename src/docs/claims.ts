import { slashed } from '../web/components.js';
import { html } from '../web/html.js';
import { type DocSection, docsTable } from './section.js';

export const claimsSection: DocSection = {
  id: 'claims',
  title: 'ID token claims',
  body: ({ issuer, claims }) => html`
${docsTable('Claims in the ID token', ['Claim', 'Content', 'Present'], [
  [html`<code>iss</code>`, html`the issuer, ${slashed(issuer)}`, 'always'],
  [html`<code>sub</code>`, html`the user’s stable id: a letter followed by digits, e.g. <code>u816124103448623</code>`, 'always'],
  [html`<code>aud</code>`, html`your <code>client_id</code>`, 'always'],
  [html`<code>exp</code>, <code>iat</code>`, 'Unix time, seconds', 'always'],
  [html`<code>nonce</code>`, html`the request’s <code>nonce</code>, unchanged`, 'when one was sent'],
  [html`<code>given_name</code>, <code>family_name</code>`, 'first and last name', 'always'],
  [html`<code>type</code>`, html`user type: <code>student</code>, <code>employee</code>, <code>admin</code>, …`, 'always'],
  [html`<code>email</code>`, 'email address', 'when the school has one'],
  [slashed(claims.googleEmail), 'email of the user’s matched Google account', 'when matched'],
  [slashed(claims.microsoftEmail), 'email of the user’s matched Microsoft account', 'when matched'],
  [slashed(claims.rosterId), html`the person’s id in the school-data provider’s system (its <code>data.id</code>)`, 'when matched'],
])}
<p>A claim that does not apply is left out, never <code>null</code>. Many pupils have no email address: do not
require one. The sandbox school’s test users cover each case (one has an email, one a matched Google account,
one a roster id).</p>
`,
};
