import { html, type Raw } from '../../web/html.js';

/** Pieces the audit and usage pages share. */

/** An instant as people read it, in UTC (the trail's days are UTC days): `2025-03-04 09:15 UTC`. */
export const when = (at: string): Raw => html`<time class="nowrap" datetime="${at}">${at.slice(0, 10)} ${at.slice(11, 16)} UTC</time>`;

export interface Choice { value: string; label: string }

/** A labelled drop-down (each option as given; the empty value first: “Any”). */
export function select(name: string, label: string, choices: readonly Choice[], value: string | undefined, error?: string): Raw {
  const id = `f-${name}`;
  return html`<div class="field${error ? ' field-invalid' : ''}">
  <label for="${id}">${label}</label>
  ${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
  <select id="${id}" name="${name}"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
    ${choices.map((c) => html`<option value="${c.value}"${c.value === (value ?? '') ? html` selected` : ''}>${c.label}</option>`)}
  </select>
</div>`;
}

/** The two days a range is chosen by (inputs of type date: a calendar where the browser has one, YYYY-MM-DD otherwise). */
export const dayField = (name: 'from' | 'to', label: string, value: string | undefined, error?: string): Raw => {
  const id = `f-${name}`;
  return html`<div class="field${error ? ' field-invalid' : ''}">
  <label for="${id}">${label}</label>
  ${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
  <input id="${id}" name="${name}" type="date" value="${value ?? ''}" pattern="\\d{4}-\\d{2}-\\d{2}" placeholder="YYYY-MM-DD"${
    error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
</div>`;
};
