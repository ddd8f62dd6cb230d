import type { AuditEvent, ClassSummary } from '../../../adapters/store.js';
import { personName } from '../../audit/audit-people.js';
import type { FoundPerson } from '../audit/audit-people.js';
import { problemsSummary, table } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { AuditNames } from '../audit/audit-names.js';
import { AUDIT_KINDS, type AuditQuery, queryParams } from '../audit/audit-query.js';
import { actionWords, deviceWords, KIND_WORDS, kindWords, methodWords, resultWords } from '../audit/audit-words.js';
import { type Choice, dayField, select, when } from './audit-parts.js';
import { schoolPath } from './school-layout.js';

/**
 * The audit trail's page (docs/school-console.md → Audit and usage): the filters as a GET form (no script),
 * the events newest first, a page at a time, and the same filters as a CSV download.
 */
export interface AuditPageView {
  slug: string;
  query: AuditQuery;
  /** What the form was sent with, shown again when it was refused. */
  typed: Record<string, string | undefined>;
  /** Refused fields by name (the form says why beside each). */
  problems: Record<string, string>;
  events: AuditEvent[];
  next?: string | undefined;
  found?: FoundPerson[] | undefined;
  classes: ClassSummary[];
  apps: { clientId: string; name: string }[];
  names: AuditNames;
}

const MOST_NAMES_SHOWN = 10;

function filters(v: AuditPageView): Raw {
  const any = { value: '', label: 'Any' };
  const classChoices: Choice[] = [any, ...v.classes.map((c) => ({ value: c.id, label: c.title }))];
  const appChoices: Choice[] = [any, ...v.apps.map((a) => ({ value: a.clientId, label: a.name }))];
  const kindChoices: Choice[] = [any, ...AUDIT_KINDS.map((k) => ({ value: k, label: KIND_WORDS[k] }))];
  const p = v.problems;
  return html`<form method="get" action="${schoolPath(v.slug, '/audit')}" class="filter-form" aria-label="Filter the audit trail">
  <div class="filter-fields">
    ${dayField('from', 'From (day)', v.typed.from, p.from)}
    ${dayField('to', 'To (day)', v.typed.to, p.to)}
    <div class="field${p.person ? ' field-invalid' : ''}">
      <label for="f-person">Person</label>
      ${p.person ? html`<p class="field-error" id="f-person-error">${p.person}</p>` : ''}
      <input id="f-person" name="person" type="search" value="${v.typed.person ?? ''}" maxlength="200" autocomplete="off"
        aria-describedby="f-person-hint${p.person ? ' f-person-error' : ''}"${p.person ? html` aria-invalid="true"` : ''}>
      <p class="hint" id="f-person-hint">Part of a name or username.</p>
    </div>
    ${select('class_id', 'Class', classChoices, v.typed.class_id, p.class_id)}
    ${select('app', 'App', appChoices, v.typed.app, p.app)}
    ${select('kind', 'What', kindChoices, v.typed.kind, p.kind)}
  </div>
  ${v.typed.user_id ? html`<input type="hidden" name="user_id" value="${v.typed.user_id}">` : ''}
  <div class="form-actions">
    <button type="submit">Show</button>
    <a href="${schoolPath(v.slug, '/audit')}">Clear the filters</a>
  </div>
</form>`;
}

/** Who the name search found, so that the page says whose events it shows. */
function foundLine(v: AuditPageView): Raw | '' {
  if (!v.found || v.query.person === undefined) return '';
  if (!v.found.length) return html`<p role="status">Nobody at the school has a name or username with “${v.query.person}” in it.</p>`;
  const shown = v.found.slice(0, MOST_NAMES_SHOWN).map((u) => `${personName(u)} (${u.username})`).join(', ');
  const more = v.found.length > MOST_NAMES_SHOWN ? ` and ${v.found.length - MOST_NAMES_SHOWN} more` : '';
  return html`<p role="status">Events of ${v.found.length === 1 ? 'the one person' : `${v.found.length} people`} matching “${v.query.person}”: ${shown}${more}.</p>`;
}

/** A cell with nothing to say is empty: a dash on wider screens, left out of a phone's stacked rows (lanyard.css). */
const orEmpty = (text: string | undefined): string => text || '';

/** What happened: the kind, and the action when it says more. */
function what(e: AuditEvent): Raw {
  const action = actionWords(e);
  return html`<strong>${kindWords(e.kind)}</strong>${action ? html`<br>${action}` : ''}`;
}

/**
 * Who: the person who did it, and the person it concerns when that is someone else (an admin's action on a
 * pupil); for a failed sign-in, whose it was. Names as recorded.
 */
function who(e: AuditEvent): Raw | string {
  const actor = e.actorName ?? e.actorId;
  const subject = e.subjectId !== e.actorId ? e.subjectName ?? e.subjectId : undefined;
  if (!actor) return orEmpty(subject);
  return subject ? html`${actor}<br><span class="muted">about</span> ${subject}` : actor;
}

/** Where: the app and the class, as far as recorded. */
function where(e: AuditEvent, names: AuditNames): Raw | string {
  const app = names.appName(e.clientId) ?? e.clientId;
  const klass = names.className(e.classId) ?? e.classId;
  if (app && klass) return html`${app}<br>${klass}`;
  return orEmpty(app ?? klass);
}

/** How: the method and the kind of device, as far as recorded. */
const how = (e: AuditEvent): string => orEmpty([methodWords(e.method), deviceWords(e.deviceKind)].filter(Boolean).join(', '));

/** The result, with the count of a merged row of failures. */
function result(e: AuditEvent): Raw | string {
  const words = resultWords(e.result);
  if (e.count > 1) return html`${orEmpty(words)} <span class="audit-count">× ${e.count}</span><span class="visually-hidden"> (${e.count} times)</span>`;
  return orEmpty(words);
}

function eventsTable(v: AuditPageView): Raw {
  const empty = v.query.before ? 'No older events match.' : 'No events match these filters.';
  return html`<div class="audit-events">${table<AuditEvent>('Audit events, newest first', [
    { heading: 'When', cell: (e) => when(e.at) },
    { heading: 'What', cell: what },
    { heading: 'Who', cell: who },
    { heading: 'How', cell: how },
    { heading: 'Where', cell: (e) => where(e, v.names) },
    { heading: 'Result', cell: result },
  ], v.events, empty, { region: true })}</div>`;
}

export function auditPageBody(v: AuditPageView): Raw {
  const params = queryParams(v.query);
  const csv = `${schoolPath(v.slug, '/audit.csv')}${params.size ? `?${params}` : ''}`;
  const older = v.next ? `${schoolPath(v.slug, '/audit')}?${queryParams(v.query, { before: v.next })}` : undefined;
  const newest = v.query.before ? `${schoolPath(v.slug, '/audit')}${params.size ? `?${params}` : ''}` : undefined;
  const refused = Object.keys(v.problems).length > 0;
  return html`<h1>Audit trail</h1>
<p class="muted">Sign-ins, apps opened, credential changes, roster imports and console actions, newest first. Days and times are UTC.
Names are as they were when it happened.</p>
<p class="page-links"><a href="${schoolPath(v.slug, '/usage')}">Use per day</a>${refused ? '' : html`<a href="${csv}" download>Download these events as CSV</a>`}</p>
${refused ? problemsSummary(undefined, v.problems) : ''}
${filters(v)}
${refused ? '' : html`${foundLine(v)}
${eventsTable(v)}
<nav class="pager" aria-label="Pages of events">
  ${newest ? html`<a href="${newest}">Newest events</a>` : ''}
  ${older ? html`<a href="${older}" rel="next">Older events</a>` : ''}
</nav>`}`;
}
