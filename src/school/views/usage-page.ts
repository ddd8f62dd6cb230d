import { type Column, problemsSummary, table } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { UsageDay } from '../../../adapters/store.js';
import { methodWords } from '../audit/audit-words.js';
import { signIns, type Usage } from '../audit/usage.js';
import { dayField } from './audit-parts.js';
import { schoolPath } from './school-layout.js';

/**
 * The use of a school per day (docs/school-console.md → Audit and usage): sign-ins by method and use by app
 * for a range of days, as tables, each day's sign-ins with a bar (a <meter>: its figure is in the cell beside
 * it, so the bar adds nothing a screen reader needs and is hidden from it).
 */
export interface UsagePageView {
  slug: string;
  typed: { from?: string | undefined; to?: string | undefined };
  problems: Record<string, string>;
  usage?: Usage | undefined;
  appName(clientId: string): string;
}

/** The day's audit trail, one click away. */
const dayLink = (slug: string, day: string): Raw => html`<a href="${schoolPath(slug, '/audit')}?from=${day}&amp;to=${day}"><time class="nowrap" datetime="${day}">${day}</time></a>`;

function bar(value: number, max: number): Raw | '' {
  return max > 0 ? html`<meter class="usage-bar" min="0" max="${max}" value="${value}" aria-hidden="true"></meter>` : '';
}

function byMethod(v: UsagePageView, u: Usage): Raw {
  const max = Math.max(0, ...u.days.map(signIns));
  const columns: Column<UsageDay>[] = [
    { heading: 'Day', cell: (d) => dayLink(v.slug, d.day) },
    { heading: 'Sign-ins', cell: (d) => html`<span class="usage-cell"><span class="usage-figure">${signIns(d)}</span>${bar(signIns(d), max)}</span>` },
    ...u.methods.map((m) => ({ heading: `By ${methodWords(m)}`, cell: (d: UsageDay) => String(d.signInsByMethod[m] ?? 0) })),
    { heading: 'Failed sign-ins', cell: (d) => String(d.failures) },
  ];
  return table('Sign-ins per day, by method', columns, [...u.days].reverse(), 'Nothing in these days.', { region: true });
}

function byApp(v: UsagePageView, u: Usage): Raw {
  if (!u.apps.length) return html`<p class="muted empty">No app was signed in to or opened in these days.</p>`;
  const columns: Column<UsageDay>[] = [
    { heading: 'Day', cell: (d) => dayLink(v.slug, d.day) },
    ...u.apps.map((a) => ({ heading: v.appName(a), cell: (d: UsageDay) => String(d.byApp[a] ?? 0) })),
  ];
  return table('Sign-ins and app launches per day, by app', columns, [...u.days].reverse(), 'Nothing in these days.', { region: true });
}

/** The range's totals: figures with their names, as a definition list. */
const totals = (figures: [name: string, value: number][]): Raw | '' => (!figures.length ? '' : html`<dl class="usage-totals">
  ${figures.map(([name, value]) => html`<div><dt>${name}</dt><dd>${value}</dd></div>`)}
</dl>`);

export function usagePageBody(v: UsagePageView): Raw {
  const refused = Object.keys(v.problems).length > 0;
  const u = v.usage;
  return html`<h1>Use per day</h1>
<p class="muted">Successful sign-ins by method, failed sign-ins, and sign-ins and app launches by app. Days are UTC days; the last 30 unless you choose.</p>
<p class="page-links"><a href="${schoolPath(v.slug, '/audit')}">The audit trail</a></p>
${refused ? problemsSummary(undefined, v.problems) : ''}
<form method="get" action="${schoolPath(v.slug, '/usage')}" class="filter-form" aria-label="Choose the days">
  <div class="filter-fields">
    ${dayField('from', 'From (day)', v.typed.from, v.problems.from)}
    ${dayField('to', 'To (day)', v.typed.to, v.problems.to)}
  </div>
  <div class="form-actions"><button type="submit">Show</button></div>
</form>
${u ? html`<h2>From ${u.from} to ${u.to}</h2>
<h3>Sign-ins by method</h3>
${totals([['Sign-ins', u.totals.signIns], ...u.methods.map((m): [string, number] => [`By ${methodWords(m)}`, u.totals.signInsByMethod[m]!]), ['Failed sign-ins', u.totals.failures]])}
${byMethod(v, u)}
<h3>By app</h3>
${totals(u.apps.map((a): [string, number] => [v.appName(a), u.totals.byApp[a]!]))}
${byApp(v, u)}` : ''}`;
}
