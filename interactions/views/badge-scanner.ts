import { html, type Raw } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';
import { errorMessage, hiddenFields, stepFooter, stepHeading, type StepView } from './step-frame.js';

/**
 * The badge screen: the camera scans the QR code in the browser (interactions/public/badge.js with jsQR,
 * both served by Lanyard); fallbacks are a photo of the badge and typing the code printed under the QR.
 * Without a live camera the page says why and what is left (badge.js withoutCamera): on a device with no
 * camera at all, the photo button opens a file chooser, so it offers to choose a photo, not take one, and it
 * moves below the code field, which comes first there (and takes the focus).
 */
export function badgeScanner(v: StepView & { error?: string | Raw; code?: string }): string {
  return layout(`Sign in to ${v.organisation.name}`, html`
${stepHeading(v, 'Show your badge to the camera')}
${errorMessage(v.error)}
<div class="scanner" data-scanner hidden>
  <video data-scanner-video playsinline muted aria-label="Camera picture"></video>
  <p class="muted" role="status" aria-live="polite" data-scanner-status>Starting the camera…</p>
</div>
<div class="upload" data-upload hidden>
  <input id="photo" class="visually-hidden" type="file" accept="image/*" capture="environment" data-upload-input>
  <label for="photo" class="photo-button"><span aria-hidden="true" data-upload-icon>📷</span> <span data-upload-label>Take a photo of your badge</span></label>
</div>
<form method="post" action="/interaction/${v.uid}/badge" data-badge-form novalidate>
  ${hiddenFields(v)}
  <label for="code">Or type the code under the picture</label>
  <input id="code" name="code" type="text" value="${v.code ?? ''}" autocomplete="off" autocapitalize="characters"
    spellcheck="false" required placeholder="ABCD-EFGH-…">
  <button type="submit">Sign in</button>
</form>
${stepFooter(v, 'badge')}
<script src="/assets/jsqr.js" defer></script>
<script src="/assets/badge.js" defer></script>
`);
}
