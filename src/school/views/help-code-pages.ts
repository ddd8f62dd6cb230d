import type { ClassSummary, User } from '../../../adapters/store.js';
import { spacedHelpCode } from '../../accounts/help-codes.js';
import { personName } from '../../audit/audit-people.js';
import { COPY_SCRIPT, flash, postButton, table } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { helpCodePath, helpCodesPath } from '../help-code-panel.js';
import { untilText } from './help-code-time.js';

/** Pages of help codes in the console (docs/school-console.md → Help codes); the frame is the caller's. */

/** A code just given, shown once: large enough to read across a classroom, and printable (the card alone). */
export function helpCodeCard(v: { pupil: User; schoolName: string; code: string; until: string; done: string }): Raw {
  const name = personName(v.pupil);
  const spaced = spacedHelpCode(v.code);
  return html`<div class="help-code-card">
  <h1 class="help-code-title">Help code for ${name}</h1>
  <p class="help-code-username">Username: <strong>${v.pupil.username}</strong></p>
  <p class="help-code-digits"><span aria-hidden="true">${spaced}</span><span class="visually-hidden">${[...v.code].join(' ')}</span></p>
  <p class="help-code-until">Works once, until ${v.until}.</p>
  <p class="help-code-how">Sign in to ${v.schoolName}, choose “I have a help code”, then type the username and these numbers.</p>
</div>
<div class="dev-actions help-code-actions">
  <button type="button" class="secondary-button" data-print hidden>Print</button>
  <a href="${v.done}">Done</a>
</div>
<p class="muted note">The code is shown only now: Lanyard keeps nothing it could show again. Give a new code if this one is lost;
it replaces this one. It stops working once used, after 5 wrong tries, or when cancelled.</p>
${COPY_SCRIPT}`;
}

/** The code's page again (reloaded, or opened later): it is not shown twice. */
export function helpCodeGone(v: { pupil: User; slug: string; csrf: string; next: string; live: boolean }): Raw {
  const name = personName(v.pupil);
  return html`<h1>Help code for ${name}</h1>
<p>${v.live ? `${name} has a help code, but it is shown only once, when it is given.` : `${name} has no help code now.`}
Give a new code to see one${v.live ? ': it replaces the other' : ''}.</p>
${postButton(helpCodePath(v.slug, v.pupil.id), v.csrf, 'Give a new help code', { primary: true, hidden: { next: v.next }, context: `to ${name}` })}
<p><a href="${v.next}">Back</a></p>`;
}

/** A live code as the list shows it. */
export interface ListedHelpCode {
  pupil: User;
  issuedBy: string;
  expiresAt: Date;
}

export interface HelpCodeListView {
  slug: string;
  csrf: string;
  codes: ListedHelpCode[];
  /** The classes the member of staff may see, for the filter; the one chosen. */
  classes: ClassSummary[];
  chosen?: ClassSummary | undefined;
  now: Date;
  timeZone: string;
  message?: string | undefined;
}

/** The school's live help codes (a class's, when one is chosen): who, given by whom, until when; each can be cancelled. */
export function helpCodeList(v: HelpCodeListView): Raw {
  const here = helpCodesPath(v.slug, v.chosen?.id);
  const list = table<ListedHelpCode>(v.chosen ? `Help codes of ${v.chosen.title}` : 'Help codes', [
    { heading: 'Pupil', cell: (c) => personName(c.pupil) },
    { heading: 'Username', cell: (c) => c.pupil.username },
    { heading: 'Given by', cell: (c) => c.issuedBy },
    { heading: 'Until', cell: (c) => untilText(c.expiresAt, v.now, v.timeZone) },
    { heading: 'Cancel', cell: (c) => postButton(helpCodePath(v.slug, c.pupil.id, '/cancel'), v.csrf, 'Cancel', { remove: true, hidden: { next: here }, context: `the help code of ${personName(c.pupil)}` }) },
  ], v.codes, v.chosen ? `No pupil of ${v.chosen.title} has a help code now.` : 'No pupil has a help code now.');
  const filter = v.classes.length > 1 || v.chosen ? html`<form method="get" action="${helpCodesPath(v.slug)}" class="help-code-filter">
  <label for="class">Class</label>
  <select id="class" name="class">
    <option value="">All your classes</option>
    ${v.classes.map((c) => html`<option value="${c.id}"${c.id === v.chosen?.id ? html` selected` : ''}>${c.title}</option>`)}
  </select>
  <button type="submit" class="secondary-button">Show</button>
</form>` : '';
  return html`<h1>Help codes</h1>
${flash(v.message)}
<p>Codes that work now. A pupil who cannot sign in gets one on their page: 6 numbers, once, until the end of the school day.</p>
${filter}
${list}`;
}
