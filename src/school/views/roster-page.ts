import type { RosterImportRun } from '../../../adapters/store.js';
import { csrfField, errorMessage, flash, table } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { RosterUpload } from '../roster-uploads.js';
import { UPLOAD_BYTES } from '../roster-uploads.js';
import { byWhom, countsSaid, formatName, utcTime } from './roster-words.js';

/**
 * The school's roster page (docs/school-console.md → The roster): upload the information system's export,
 * the upload waiting for Apply (if any), and the imports applied so far for this school.
 */

export interface RosterPageOptions {
  slug: string;
  csrf: string;
  /** Where the upload form posts. */
  action: string;
  /** This session's upload waiting for Apply, and its plan's address. */
  pending?: { upload: RosterUpload; href: string } | undefined;
  history: RosterImportRun[];
  flash?: string | undefined;
  /** Why the upload was refused. */
  error?: string | undefined;
}

export function rosterPageBody(o: RosterPageOptions): Raw {
  return html`<h1>Roster</h1>
${flash(o.flash)}
<section class="dev-section" aria-labelledby="upload-heading">
<h2 id="upload-heading">Bring in the roster</h2>
<p>Upload this school's export from its information system: a OneRoster 1.1 or 1.2 zip, or the one-file CSV.
You see what would change — who is added, what changes, who leaves, and any error — before anything is applied.</p>
${o.pending ? html`<p class="notice">Your upload <strong>${o.pending.upload.name}</strong> is waiting: <a href="${o.pending.href}">see its plan</a>.</p>` : ''}
${errorMessage(o.error)}
<form method="post" action="${o.action}" enctype="multipart/form-data" class="dev-form">
${csrfField(o.csrf)}
<div class="field${o.error ? ' field-invalid' : ''}">
  <label for="f-file">The export</label>
  <p class="hint" id="f-file-hint">A .zip or .csv file, at most ${UPLOAD_BYTES / 1024 / 1024} MiB. A district's export with several schools is imported by the operator.</p>
  <input id="f-file" name="file" type="file" accept=".zip,.csv,application/zip,text/csv" required aria-describedby="f-file-hint${o.error ? ' form-error' : ''}"${o.error ? html` aria-invalid="true"` : ''}>
</div>
<div class="form-actions"><button type="submit">Upload and see the plan</button></div>
</form>
</section>
<section class="dev-section" aria-labelledby="history-heading">
<h2 id="history-heading">Imports so far</h2>
${table('Roster imports applied for this school, newest first', [
    { heading: 'When (UTC)', cell: (r: RosterImportRun) => utcTime(r.at) },
    { heading: 'By', cell: (r: RosterImportRun) => byWhom(r.by) },
    { heading: 'Format', cell: (r: RosterImportRun) => formatName(r.format) },
    { heading: 'What changed', cell: (r: RosterImportRun) => whatChanged(r, o.slug) },
  ], o.history, 'No roster import has been applied for this school yet.')}
</section>`;
}

/** What an import did for this school; an import of several schools (the operator's, for a district) without counts: they are the other schools' too. */
function whatChanged(run: RosterImportRun, slug: string): string {
  const others = run.organisations.filter((s) => s !== slug).length;
  if (others) return `imported with ${others} other ${others === 1 ? 'school' : 'schools'} of the district`;
  return countsSaid(run.counts);
}
