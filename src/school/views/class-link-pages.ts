import type { RosterClass } from '../../../adapters/store.js';
import { CLASS_LINK_LENGTHS, type ClassLinkLength } from '../../accounts/class-link-length.js';
import { spacedClassCode } from '../../accounts/class-links.js';
import { COPY_SCRIPT, csrfField, postButton, table } from '../../web/components.js';
import { html, type Raw, raw } from '../../web/html.js';
import type { ListedClassLink } from '../class-link-actions.js';
import type { Translator } from '../../web/i18n/translator.js';
import { untilParts, untilText } from './help-code-time.js';
import { classPath } from './pupil-parts.js';

/** Class links on a class's page and the page that shows a new one once (docs/school-console.md → Class links); the frame is the caller's. */

const LENGTH_WORDS: Record<ClassLinkLength, string> = {
  hour: '1 hour',
  two_hours: '2 hours',
  school_day: 'Until the end of the school day',
};

/** The page that shows a link just made (once). */
export const classLinkPath = (slug: string, klass: Pick<RosterClass, 'id'>): string => classPath(slug, klass, '/class-link');
/** Where links are made (POST) and, with `/<id>/revoke`, revoked. */
export const classLinksPath = (slug: string, klass: Pick<RosterClass, 'id'>, rest = ''): string => classPath(slug, klass, `/class-links${rest}`);

/** The class page's panel: the live links (made by, until, revoke) and the form that makes one. */
export function classLinkPanel(v: { slug: string; klass: RosterClass; csrf: string; links: ListedClassLink[]; now: Date; timeZone: string }): Raw {
  const list = table<ListedClassLink>(`Live class links of ${v.klass.title}`, [
    { heading: 'Made by', cell: (l) => l.madeBy },
    { heading: 'Made', cell: (l) => untilText(l.createdAt, v.now, v.timeZone) },
    { heading: 'Until', cell: (l) => untilText(l.expiresAt, v.now, v.timeZone) },
    {
      heading: 'Revoke',
      cell: (l) => postButton(classLinksPath(v.slug, v.klass, `/${encodeURIComponent(l.id)}/revoke`), v.csrf, 'Revoke', { remove: true, context: `the class link made by ${l.madeBy}, until ${untilText(l.expiresAt, v.now, v.timeZone)}` }),
    },
  ], v.links, 'No class link is live now.');
  return html`<section class="dev-section" aria-labelledby="class-link">
<h2 id="class-link">Class link</h2>
<p>A class link opens this class's name tiles on any device — a tablet, a pupil's laptop — so that pupils tap their name
instead of typing it. Show it on the board or print it. It works until it ends or you revoke it; anyone without it sees no names.</p>
${list}
<form method="post" action="${classLinksPath(v.slug, v.klass)}" class="class-link-form">
  ${csrfField(v.csrf)}
  <fieldset>
    <legend>How long should a new link work?</legend>
    ${CLASS_LINK_LENGTHS.map((l, i) => html`<div class="check"><input type="radio" name="length" value="${l}" id="class-link-${l}"${i === 0 ? html` checked` : ''}><label for="class-link-${l}">${LENGTH_WORDS[l]}</label></div>`)}
  </fieldset>
  <button type="submit">Make a class link</button>
</form>
</section>`;
}

/** Until when the card's link works, in its language (the school's wall clock: help-code-time.ts). */
function cardUntil(t: Translator, expiresAt: Date, now: Date, timeZone: string): string {
  const { days, time, date } = untilParts(expiresAt, now, timeZone, t.locale);
  if (days === 0) return t.t('classLink.card.untilToday', { time });
  if (days === 1) return t.t('classLink.card.untilTomorrow', { time });
  return t.t('classLink.card.untilDay', { day: date, time });
}

/**
 * A link just made, shown once: the code large enough to read across a classroom, the link, its QR code;
 * printable (the card alone). The card is what pupils read: in the school's language (`t`), the rest of the page
 * the console's English.
 */
export function classLinkCard(v: {
  klass: RosterClass; schoolName: string; code: string; url: string; qrSvg: string; expiresAt: Date; now: Date; timeZone: string; done: string; t: Translator;
}): Raw {
  const { t } = v;
  const spaced = spacedClassCode(v.code);
  return html`<div class="help-code-card class-link-card" lang="${t.locale}" dir="${t.dir}">
  <h1 class="help-code-title">${t.t('classLink.card.title', { class: v.klass.title })}</h1>
  <div class="class-link-qr" role="img" aria-label="${t.t('classLink.card.qr')}">${raw(v.qrSvg)}</div>
  <p class="class-link-url">${v.url}</p>
  <p class="help-code-how">${t.t('classLink.card.orType', { address: `${new URL(v.url).host}/class` })}</p>
  <p class="help-code-digits class-link-code"><span aria-hidden="true">${spaced}</span><span class="visually-hidden">${[...v.code].join(' ')}</span></p>
  <p class="help-code-until">${cardUntil(t, v.expiresAt, v.now, v.timeZone)}</p>
  <p class="help-code-how">${t.t('classLink.card.then', { school: v.schoolName })}</p>
</div>
<div class="dev-actions help-code-actions">
  <button type="button" class="secondary-button" data-print hidden>Print</button>
  <a href="${v.done}">Done</a>
</div>
<p class="muted note">The code is shown only now: Lanyard keeps nothing it could show again. Make a new link if this one is lost,
and revoke this one on the class page if it should stop working before it ends.</p>
${COPY_SCRIPT}`;
}

/** The link's page again (reloaded, or opened later): a code is not shown twice. */
export function classLinkGone(v: { klass: RosterClass; slug: string }): Raw {
  return html`<h1>Class link for ${v.klass.title}</h1>
<p>A class link's code is shown only once, when it is made. Make a new link on the class page to see one; revoke the
others there if they should stop working.</p>
<p><a href="${classPath(v.slug, v.klass)}">Back to ${v.klass.title}</a></p>`;
}
