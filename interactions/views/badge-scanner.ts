import { html, type Raw } from '../../src/web/html.js';
import type { MessageKey } from '../../src/web/messages/catalogue.js';
import { pupilFooter } from './pupil-footer.js';
import { errorMessage, hiddenFields, isolated, stepFooter, stepHeading, stepPage, type StepView, type TappedPupil } from './step-frame.js';

/** What badge.js says as the camera works, each handed to it in the page's language as a data- attribute of the form. */
const SCRIPT_WORDS: Record<string, MessageKey> = {
  'data-say-found': 'signIn.badge.found',
  'data-say-take-away': 'signIn.badge.takeAway',
  'data-say-hold-up': 'signIn.badge.holdUp',
  'data-say-no-badge': 'signIn.badge.noBadgeInPhoto',
  'data-say-unreadable': 'signIn.badge.unreadablePhoto',
  'data-say-type-code': 'signIn.badge.typeCode',
  'data-say-choose-photo': 'signIn.badge.orChoosePhoto',
  'data-say-no-camera-prompt': 'signIn.badge.noCameraPrompt',
  'data-say-blocked-prompt': 'signIn.badge.blockedPrompt',
  'data-say-no-camera': 'signIn.badge.noCamera',
  'data-say-blocked': 'signIn.badge.blocked',
};

/**
 * The badge screen: the camera scans the QR code in the browser (interactions/public/badge.js with jsQR,
 * both served by Lanyard); fallbacks are a photo of the badge and typing the code printed under the QR.
 * Without a live camera the page says why and what is left (badge.js withoutCamera): on a device with no
 * camera at all, the photo button opens a file chooser, so it offers to choose a photo, not take one, and it
 * moves below the code field, which comes first there (and takes the focus). For the pupil whose name tile was
 * tapped (class sign-in: `pupil`), it greets them, and only their badge signs in (interactions/class-tile-badge.ts).
 */
export function badgeScanner(v: StepView & { error?: string | Raw; code?: string; pupil?: TappedPupil | undefined }): string {
  const { t, pupil } = v;
  const action = pupil ? `/interaction/${v.uid}/pupil/${encodeURIComponent(pupil.id)}/badge` : `/interaction/${v.uid}/badge`;
  const words = [
    ...Object.entries(SCRIPT_WORDS).map(([attribute, key]) => html` ${attribute}="${t.t(key)}"`),
    // A tapped pupil is still greeted by name when the page says there is no camera.
    ...(pupil ? [html` data-say-hello="${t.t('classSignIn.hello', { name: isolated(pupil.name) })}"`] : []),
  ];
  return stepPage(v, html`
${stepHeading(v, pupil ? t.t('classSignIn.badgeGreeting', { name: isolated(pupil.name) }) : t.t('signIn.badge.prompt'))}
${errorMessage(v.error)}
<div class="scanner" data-scanner hidden>
  <video data-scanner-video playsinline muted aria-label="${t.t('signIn.badge.camera')}"></video>
  <p class="muted" role="status" aria-live="polite" data-scanner-status>${t.t('signIn.badge.starting')}</p>
</div>
<div class="upload" data-upload hidden>
  <input id="photo" class="visually-hidden" type="file" accept="image/*" capture="environment" data-upload-input>
  <label for="photo" class="photo-button"><span aria-hidden="true" data-upload-icon>📷</span> <span data-upload-label>${t.t('signIn.badge.takePhoto')}</span></label>
</div>
<form method="post" action="${action}" data-badge-form novalidate${words}>
  ${hiddenFields(v)}
  <label for="code">${t.t('signIn.badge.orTypeCode')}</label>
  <input id="code" name="code" type="text" value="${v.code ?? ''}" autocomplete="off" autocapitalize="characters"
    spellcheck="false" required placeholder="ABCD-EFGH-…" dir="ltr">
  <button type="submit">${t.t('signIn.submit')}</button>
</form>
${pupil ? pupilFooter({ ...v, pupil }, 'badge') : stepFooter(v, 'badge')}
<script src="/assets/jsqr.js" defer></script>
<script src="/assets/badge.js" defer></script>
`);
}
