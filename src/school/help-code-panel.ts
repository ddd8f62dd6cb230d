import type { User } from '../../adapters/store.js';
import { helpCodeRefusal, type HelpCodeRefusal } from '../accounts/help-codes.js';
import { personName } from '../audit/audit-people.js';
import { schoolDaySettings } from '../config/school-day.js';
import { csrfField, postButton } from '../web/components.js';
import { html, type Raw } from '../web/html.js';
import type { SchoolAccess } from './access.js';
import type { StaffSignedIn } from './area.js';
import type { SchoolDeps } from './deps.js';
import { untilText } from './views/help-code-time.js';
import { schoolPath } from './views/school-layout.js';

/**
 * The "Help code" panel of a pupil's page in the console (docs/school-console.md → Help codes): give the pupil a
 * code (POST …/help-code, then the code shown once on its own page), or see and cancel the one they have.
 */

/** `/school/<slug>/people/<userId>/help-code` and what follows. */
export const helpCodePath = (slug: string, userId: string, rest = ''): string =>
  schoolPath(slug, `/people/${encodeURIComponent(userId)}/help-code${rest}`);

/** The school's live help codes, of one class when given. */
export const helpCodesPath = (slug: string, classId?: string): string =>
  schoolPath(slug, `/help-codes${classId ? `?class=${encodeURIComponent(classId)}` : ''}`);

export interface HelpCodePanelView {
  slug: string;
  pupil: User;
  /** The pupil's live code: until when, and who gave it. */
  live?: { expiresAt: Date; issuedBy: string } | undefined;
  /** Why no code can be given, when none can. */
  refusal?: HelpCodeRefusal | undefined;
  csrf: string;
  now: Date;
  timeZone: string;
  /** The page the panel is on: where the code's page and a cancel lead back to. */
  back: string;
}

/** What the console says when no code is given (helpCodeRefusal). */
export function helpCodeRefusalText(refusal: HelpCodeRefusal, pupil: User): string {
  const name = personName(pupil);
  switch (refusal) {
    case 'oneself': return 'You cannot give yourself a help code.';
    case 'staff': return `Help codes are for pupils: ${name} is a member of staff (here or at another school), so no help code was given.`;
    case 'other_school': return `${name} signs in at their own school: a help code is given there.`;
    case 'may_not_sign_in': return `${name} cannot sign in at the moment (suspended, or held by the roster), so no help code was given.`;
  }
}

/** Whether the panel is left out: for oneself and for staff, help codes are not a thing at all. */
const noPanel = (refusal: HelpCodeRefusal | undefined): boolean => refusal === 'oneself' || refusal === 'staff';

export function helpCodePanelView(v: HelpCodePanelView): Raw {
  if (noPanel(v.refusal)) return html``;
  const name = personName(v.pupil);
  const back = { next: v.back };
  const body = v.refusal
    ? html`<p>${v.refusal === 'other_school' ? helpCodeRefusalText(v.refusal, v.pupil)
      : `${name} cannot sign in at the moment (suspended, or held by the roster), so a help code would not work.`}</p>`
    : html`<p>If ${v.pupil.givenName || name} cannot sign in (forgot their pictures, lost their badge), give them a help code:
  6 numbers they type once instead, until the end of the school day.</p>
${v.live ? html`<p class="notice">${name} has a help code from ${v.live.issuedBy}, until ${untilText(v.live.expiresAt, v.now, v.timeZone)}.
  A new code replaces it.</p>` : ''}
<div class="dev-actions">
  <form method="post" action="${helpCodePath(v.slug, v.pupil.id)}" class="inline-form">
    ${csrfField(v.csrf)}<input type="hidden" name="next" value="${v.back}">
    <button type="submit">${v.live ? 'Give a new help code' : 'Give a help code'}<span class="visually-hidden"> to ${name}</span></button>
  </form>
  ${v.live ? postButton(helpCodePath(v.slug, v.pupil.id, '/cancel'), v.csrf, 'Cancel the help code', { remove: true, hidden: back, context: `of ${name}` }) : ''}
</div>`;
  return html`<section class="dev-section help-code-panel" aria-labelledby="help-code-heading">
<h2 id="help-code-heading">Help code</h2>
${body}
</section>`;
}

/** The name of whoever issued a code (their user id), as the console shows it. */
export async function issuerName(deps: Pick<SchoolDeps, 'store'>, userId: string): Promise<string> {
  const user = await deps.store.findUser(userId);
  return user ? personName(user) : 'someone no longer here';
}

/**
 * The panel for `pupil` (already checked with personOf), on the page `back` (the pupil's page by default):
 * reads their live code. For the pupil's page: `${await helpCodePanel(deps, s.school, pupil, s.who)}`. None for
 * oneself or a member of staff (help codes are for pupils only).
 */
export async function helpCodePanel(deps: SchoolDeps, school: SchoolAccess, pupil: User, who: StaffSignedIn, back?: string): Promise<Raw> {
  const slug = school.organisation.slug;
  const refusal = await helpCodeRefusal(deps.store, pupil, school.organisation.id, who.account.id);
  if (noPanel(refusal)) return html``;
  const code = refusal ? undefined : await deps.helpCodes.live(pupil.id);
  return helpCodePanelView({
    slug, pupil, refusal, csrf: who.csrf, now: deps.clock.now(), timeZone: schoolDaySettings(deps.config.file).timeZone,
    back: back ?? schoolPath(slug, `/people/${encodeURIComponent(pupil.id)}`),
    live: code && { expiresAt: new Date(code.expiresAt), issuedBy: await issuerName(deps, code.issuedBy) },
  });
}
