import { personName } from '../../audit/audit-people.js';
import { postButton } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { PersonFacts } from '../person-facts.js';
import type { PupilAction } from '../pupil-actions.js';
import { ACTION_WORDS } from './pupil-parts.js';

export interface HelpPanelOptions {
  /** The person's page (actions post to `<base>/<action>`). */
  base: string;
  csrf: string;
  facts: PersonFacts;
  /** Offer a new emoji password here (a teacher's page; an admin's panel has its own). */
  newEmoji: boolean;
  /**
   * How they sign in is not changed here (access.ts credentialRefusal): no new credential, print, void or unlock;
   * `why` says so (left out where another panel of the page says it).
   */
  refused?: { why?: string | undefined } | undefined;
}

/**
 * What a teacher (and a school admin) does for a pupil who cannot sign in, as a panel of the person's page
 * (docs/school-console.md → Helping a pupil): a new emoji password (shown once at the top of the page, with its
 * card to print); new emoji cards or badges printed, or their badge voided, each confirmed on the next page
 * first (a GET form: nothing changes until then); unlock and sign out everywhere, one button each.
 */
export function pupilHelpPanel(o: HelpPanelOptions): Raw {
  const name = personName(o.facts.user);
  const confirmed: PupilAction[] = ['emoji-cards', 'badges', ...(o.facts.badge ? ['void-badges' as const] : [])];
  const locked = o.facts.locked.length > 0;
  const signOut = postButton(`${o.base}/sign-out`, o.csrf, 'Sign out everywhere', { context: name });
  if (o.refused) {
    return html`<section class="dev-section" aria-labelledby="help-heading">
<h2 id="help-heading">Help them sign in</h2>
${o.refused.why ? html`<p>${o.refused.why}</p>` : ''}
<div class="action-buttons">${signOut}</div>
<p class="hint">Sign out everywhere ends their sign-ins on every device and in every app.</p>
</section>`;
  }
  return html`<section class="dev-section" aria-labelledby="help-heading">
<h2 id="help-heading">Help them sign in</h2>
${o.newEmoji ? html`<p>A new emoji password replaces the old one at once and signs them out everywhere. Lanyard shows it to you once, with their card to print.</p>
<div class="action-buttons">${postButton(`${o.base}/emoji`, o.csrf, 'Make a new emoji password', { primary: true })}</div>` : ''}
<form method="get" action="${o.base}/confirm" class="action-buttons">
  ${confirmed.map((a) => html`<button type="submit" name="action" value="${a}" class="secondary-button">${ACTION_WORDS[a].one}</button>`)}
</form>
<p class="hint">You confirm these on the next page: each replaces or voids what they have now.</p>
<div class="action-buttons">
  ${postButton(`${o.base}/unlock`, o.csrf, 'Unlock', { context: name, primary: locked })}
  ${signOut}
</div>
<p class="hint">${locked ? 'Sign-in from new devices has stopped after too many wrong tries: unlock it.' : 'Unlock clears any wait after wrong tries.'} Sign out everywhere ends their sign-ins on every device and in every app.</p>
</section>`;
}
