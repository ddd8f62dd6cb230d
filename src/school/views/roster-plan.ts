import { countsOf, type FieldChange, KIND_LABELS, type PlanError, PLAN_KINDS, type RecordName } from '../../roster/plan/plan-types.js';
import { csrfField, errorMessage, flash, table } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { RosterUpload, ShownPlan } from '../roster-uploads.js';
import { formatName, utcTime } from './roster-words.js';

/**
 * The plan of an uploaded roster as a page (docs/school-console.md → The roster): what `lanyard roster import`
 * prints, for a school admin: the counts per kind, every error with its file, line and reason, then (folded
 * away, each a list) the records added, changed field by field, and leaving; then Apply, with the box that
 * confirms a mass removal when the guard tripped, or nothing to apply while there is another error.
 */

/** How many records a list shows before "… and N more". */
export const SHOWN_ON_PAGE = 500;

export interface PlanPageOptions {
  upload: RosterUpload & { plan: ShownPlan };
  csrf: string;
  /** Where Apply and Discard post. */
  applyAction: string;
  discardAction: string;
  /** Days a leaver is kept before being deleted (roster.retention_days). */
  retentionDays: number;
  flash?: string | undefined;
  /** Why Apply was refused (the box not ticked, another import at work). */
  error?: string | undefined;
}

export function rosterPlanBody(o: PlanPageOptions): Raw {
  const { plan } = o.upload;
  const guard = new Set(plan.massRemoval.map((e) => JSON.stringify(e)));
  const blocking = plan.errors.filter((e) => !guard.has(JSON.stringify(e)));
  return html`<h1>The roster plan</h1>
${flash(o.flash, 'info')}
<p><strong>${o.upload.name}</strong> (${formatName(plan.format)}), compared with Lanyard at ${utcTime(plan.plannedAt)} UTC. Nothing has been changed yet.</p>
${countsTable(plan)}
${blocking.length ? errorsSection(blocking) : ''}
${!blocking.length && plan.massRemoval.length ? massRemovalSection(plan.massRemoval) : ''}
${details(plan, o.retentionDays)}
${applySection(o, blocking.length > 0)}`;
}

/** The counts per kind: a table of numbers; on a phone each kind a line of its four counts, each named. */
function countsTable(plan: ShownPlan): Raw {
  const columns = ['Added', 'Changed', 'Unchanged', 'Leaving'] as const;
  return html`<div class="table-wrap"><table class="plan-counts">
  <caption class="visually-hidden">What the import would do, per kind of record</caption>
  <thead><tr><th scope="col">Records</th>${columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
  <tbody>${PLAN_KINDS.map((k) => {
    const c = countsOf(plan.kinds[k]);
    return html`<tr><th scope="row">${KIND_LABELS[k][0]}</th>${columns.map((col) => html`<td data-label="${col}">${c[col.toLowerCase() as Lowercase<typeof col>]}</td>`)}</tr>`;
  })}</tbody>
</table></div>`;
}

function errorsSection(errors: PlanError[]): Raw {
  return html`<section class="dev-section" aria-labelledby="errors-heading">
<h2 id="errors-heading">${errors.length === 1 ? '1 error' : `${errors.length} errors`}: nothing can be applied</h2>
<p class="error" role="alert">Correct the export in your school's information system, export it again and upload the new file. Nothing is applied while the plan has an error.</p>
${table('Errors in the files', [
    { heading: 'File', cell: (e) => e.file || '—' },
    { heading: 'Line', cell: (e) => (e.line > 0 ? e.line : 'the whole file') },
    { heading: 'Column', cell: (e) => e.column || '—' },
    { heading: 'Value', cell: (e) => (e.value !== undefined ? html`<code>${e.value}</code>` : '—') },
    { heading: 'Reason', cell: (e) => e.message },
  ], errors, '')}
</section>`;
}

function massRemovalSection(errors: PlanError[]): Raw {
  return html`<section class="dev-section" aria-labelledby="mass-heading">
<h2 id="mass-heading">A large part of the school would leave</h2>
<div class="warning">
<p>A truncated or wrong export must not empty a school, so this plan is applied only if you confirm it below:</p>
<ul>${errors.map((e) => html`<li>${e.message.replace(/: (is|If) .*$/s, '.')}</li>`)}</ul>
<p>Is the export complete? If these people and classes really are leaving, tick the box before you apply.</p>
</div>
</section>`;
}

const named = (several: boolean) => (n: RecordName) => (several ? `${n.name} (${n.organisation})` : n.name);

/** One folded list per part of the plan, each with its count. */
function details(plan: ShownPlan, retentionDays: number): Raw {
  const several = plan.organisations.length > 1;
  const name = named(several);
  const added = PLAN_KINDS.flatMap((k) => plan.kinds[k].added.map((n) => ({ kind: KIND_LABELS[k][1], name: name(n) })));
  const changed = PLAN_KINDS.flatMap((k) => plan.kinds[k].changed.map((c) => ({ kind: KIND_LABELS[k][1], name: name(c), fields: c.fields })));
  const leaving = PLAN_KINDS.flatMap((k) => plan.kinds[k].leaving.map((n) => ({ kind: KIND_LABELS[k][1], name: name(n) })));
  const byKind = [{ heading: 'Kind', cell: (r: { kind: string }) => r.kind }, { heading: 'Name', cell: (r: { name: string }) => r.name }];
  return html`${folded('Added', added.length, table('Records added', byKind, capped(added), ''), added.length)}
${folded('Changed', changed.length, table('Records changed, field by field', [
    ...byKind, { heading: 'What changes', cell: (r: (typeof changed)[number]) => fieldList(r.fields) },
  ], capped(changed), ''), changed.length)}
${folded('Leaving', leaving.length, html`<p>People leaving can no longer sign in; Lanyard deletes them after ${retentionDays} ${retentionDays === 1 ? 'day' : 'days'}, unless a later roster lists them again.</p>
${table('Records leaving', byKind, capped(leaving), '')}`, leaving.length)}
${plan.notes.length ? folded('Notes', plan.notes.length, html`<ul>${plan.notes.map((n) => html`<li>${n}</li>`)}</ul>`, 0) : ''}`;
}

const capped = <T>(rows: T[]): T[] => rows.slice(0, SHOWN_ON_PAGE);

function folded(title: string, count: number, body: Raw, total: number): Raw {
  if (!count) return html`<p class="muted">${title}: none.</p>`;
  const more = total > SHOWN_ON_PAGE ? html`<p class="muted">… and ${total - SHOWN_ON_PAGE} more (the operator's <code>lanyard roster import --dry-run</code> lists them all).</p>` : '';
  return html`<details class="plan-part">
<summary><span class="plan-part-title">${title}</span> (${count})</summary>
${body}${more}
</details>`;
}

const shownValue = (v: string | undefined) => (v === undefined ? html`<span class="muted">(none)</span>` : html`<q>${v}</q>`);

function fieldList(fields: FieldChange[]): Raw {
  return html`<ul class="field-changes">${fields.map((f) => html`<li><code>${f.field}</code>: ${shownValue(f.from)} → ${shownValue(f.to)}</li>`)}</ul>`;
}

function applySection(o: PlanPageOptions, blocked: boolean): Raw {
  const { plan } = o.upload;
  const discard = html`<div class="dev-actions"><form method="post" action="${o.discardAction}" class="inline-form">${csrfField(o.csrf)}
<button type="submit" class="secondary-button">Discard this upload</button></form></div>`;
  if (blocked) return html`<section class="dev-section"><h2>Nothing to apply</h2><p>The plan has errors.</p>${discard}</section>`;
  if (!plan.changes) return html`<section class="dev-section"><h2>Nothing to apply</h2><p>Lanyard already holds this roster: the file changes nothing.</p>${discard}</section>`;
  return html`<section class="dev-section" aria-labelledby="apply-heading">
<h2 id="apply-heading">Apply the plan</h2>
${errorMessage(o.error)}
<form method="post" action="${o.applyAction}" class="dev-form">
${csrfField(o.csrf)}
${plan.massRemoval.length ? html`<div class="check">
  <input type="checkbox" id="f-allow_mass_removal" name="allow_mass_removal" value="yes"${o.error ? html` aria-invalid="true" aria-describedby="form-error"` : ''}>
  <label for="f-allow_mass_removal">They really are leaving: apply the removal</label>
</div>` : ''}
<p class="hint">Lanyard applies exactly this plan. If the roster changed since it was made, you see the new plan first.</p>
<div class="form-actions"><button type="submit">Apply this plan</button></div>
</form>
${discard}
</section>`;
}
