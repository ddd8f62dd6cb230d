import { html } from './html.js';

/**
 * An instant as people read it, in UTC: the areas' lists and histories are read across time zones and must be
 * unambiguous. `never` when there is none ("Never" used, "Never" expires).
 */
export const when = (iso: string | undefined, never = 'Never') => {
  if (!iso) return html`<span class="muted">${never}</span>`;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return html`${iso}`;
  const text = `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
  return html`<time datetime="${d.toISOString()}" class="nowrap">${text}</time>`;
};
