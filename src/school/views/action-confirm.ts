import { csrfField } from '../../web/components.js';
import { html } from '../../web/html.js';
import type { StaffSignedIn } from '../area.js';
import { NOT_CHANGED, type PupilAction } from '../pupil-actions.js';
import { ACTION_WORDS, paperChoice } from './pupil-parts.js';
import { type PageSchool, schoolLayout } from './school-layout.js';

export interface ConfirmData {
  who: StaffSignedIn;
  school: PageSchool;
  action: PupilAction;
  /** Whom it is for, after the heading: `Class 3B: 3 pupils`, `Ada Jones`. */
  whom: string;
  /** The names of those it is for, listed. */
  names: string[];
  /** Those a print leaves out: they cannot sign in (suspended, or left the school's roster). */
  leftOut: string[];
  /** Those an action that changes how they sign in leaves out (access.ts credentialsChangeable). */
  notChanged?: string[] | undefined;
  /** Where the confirmation posts, with what (the pupils chosen, or the whole class). */
  post: string;
  fields: [name: string, value: string][];
  back: { href: string; label: string };
}

/** Up to this many names are listed as they are; more fold away. */
const FEW = 8;

/**
 * The confirmation of an action for one pupil, a selection or a whole class (docs/school-console.md →
 * Printing): what it does — that printing emoji cards or badges replaces what they have — whom it is for,
 * the paper for a print, and one button that posts (with the session's CSRF token). A print's answer is the
 * PDF, which the browser downloads; this page stays.
 */
export function confirmPage(d: ConfirmData): string {
  const words = ACTION_WORDS[d.action];
  const body = html`<div class="school-page">
<p class="app-back"><a href="${d.back.href}">← ${d.back.label}</a></p>
<h1>${words.heading}</h1>
<p class="school-whom">${d.whom}</p>
<p class="warning">${words.explain}</p>
${d.names.length > FEW ? html`<details class="chosen-list"><summary>Who (${d.names.length})</summary><ul>${d.names.map((n) => html`<li>${n}</li>`)}</ul></details>`
    : d.names.length > 1 ? html`<p>For ${d.names.join(', ')}.</p>` : ''}
${d.leftOut.length ? html`<p class="explain">Left out, because they cannot sign in (suspended, or left the school's roster): ${d.leftOut.join(', ')}.</p>` : ''}
${d.notChanged?.length ? html`<p class="explain">Left out: ${d.notChanged.join(', ')} (${NOT_CHANGED}).</p>` : ''}
${words.print ? html`<p>The PDF holds their secrets and Lanyard does not keep it: print it, hand them out, then delete the file.</p>` : ''}
<form method="post" action="${d.post}" class="app-form">
  ${csrfField(d.who.csrf)}
  ${d.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
  ${words.print ? html`<fieldset><legend>Paper</legend>${paperChoice()}</fieldset>` : ''}
  <div class="form-actions">
    <button type="submit"${d.action === 'unlock' ? '' : html` class="danger"`}>${words.confirm}</button>
    <a href="${d.back.href}">Cancel</a>
  </div>
</form>
</div>`;
  return schoolLayout(words.heading, body, d.who, d.school, 'classes');
}
