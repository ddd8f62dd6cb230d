import { personName } from '../../audit/audit-people.js';
import { errorMessage, flash } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { PersonFacts } from '../person-facts.js';
import { revealedCredential, type Revealed } from './person-admin-panel.js';
import { statusWord, waysIn } from './people-page.js';
import { lockedText } from './pupil-parts.js';
import { utcTime } from './roster-words.js';
import { schoolPath } from './school-layout.js';

/**
 * A person's page in the console (docs/school-console.md → People and staff): who they are, their classes in
 * this school, how they sign in and whether they may, then what the member of staff may do (`actions`: the
 * admin panel); a credential just made is shown once at the top.
 */
export function personPageBody(slug: string, facts: PersonFacts, o: {
  actions: Raw; revealed?: Revealed | undefined; flash?: string | undefined; error?: string | undefined;
  /** The way back: People for an admin (the default), their class for a teacher. */
  back?: { href: string; label: string } | undefined;
  /** Where a new emoji password's card is printed (the reveal's form), with the session's token. */
  card?: { action: string; csrf: string } | undefined;
}): Raw {
  const u = facts.user;
  const status = statusWord({ suspended: !!u.suspendedAt, rosterHold: u.rosterHold ?? null });
  const back = o.back ?? { href: schoolPath(slug, '/people'), label: 'People' };
  return html`<p><a href="${back.href}">${back.label}</a></p>
<h1>${personName(u)}</h1>
${flash(o.flash)}
${errorMessage(o.error)}
${o.revealed ? revealedCredential(o.revealed, o.card) : ''}
<dl class="dev-facts">
  <dt>Username</dt><dd>${u.username}</dd>
  <dt>Type</dt><dd>${u.type}</dd>
  ${facts.ownSchool ? html`<dt>Own school</dt><dd>${facts.ownSchool}</dd>` : ''}
  <dt>Classes here</dt><dd>${facts.classes.map((c) => (c.role === 'student' ? c.title : `${c.title} (${c.role})`)).join(', ') || 'none'}</dd>
  <dt>Signs in with</dt><dd>${waysIn(facts)}</dd>
  <dt>Status</dt><dd>${status}${u.rosterHold && u.rosterHoldSince ? ` since ${utcTime(u.rosterHoldSince)} UTC` : ''}</dd>
  <dt>Locked</dt><dd>${lockedText(facts.locked)}</dd>
  <dt>Last sign-in</dt><dd>${facts.lastSignIn ? `${utcTime(facts.lastSignIn)} UTC` : 'never'}</dd>
</dl>
${o.actions}`;
}
