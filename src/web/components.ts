import { showUnseen } from '../formats/unseen-characters.js';
import { html, type Raw } from './html.js';
import { ENGLISH, type Translator } from './i18n/translator.js';

/**
 * Building blocks every server-rendered page shares (sign-in screens, developer area, and what follows).
 * Each returns escaped markup (Raw); none needs JavaScript.
 */

/** The one error message of a form, announced at once by screen readers. */
export const errorMessage = (error?: string | Raw) => (error ? html`<p class="error" role="alert" id="form-error">${error}</p>` : '');

/**
 * Above a refused form: its one message, or, where fields were refused, how many and each problem as a link to
 * its field (field() shows the message beside the field too), so that on a long form or a phone nothing refused
 * is out of sight. `fields`: by field name, or as a ValidationError's list.
 */
export function problemsSummary(formError: string | Raw | undefined, fields: Record<string, string> | { path: string; message: string }[] = []): Raw | '' {
  const problems = Array.isArray(fields) ? fields : Object.entries(fields).map(([path, message]) => ({ path, message }));
  if (formError || !problems.length) return errorMessage(formError);
  return html`<div class="error error-summary" role="alert" id="form-error">
  <p>${problems.length === 1 ? 'Please correct the field marked below:' : `Please correct the ${problems.length} fields marked below:`}</p>
  <ul>${problems.map((p) => html`<li><a href="#f-${p.path}">${p.message}</a></li>`)}</ul>
</div>`;
}

/** Ties fields to the form's error message for screen readers. */
export const invalidIf = (error?: string | Raw) => (error ? html`aria-invalid="true" aria-describedby="form-error"` : '');

/** The CSRF token every form carries (src/web/csrf.ts makes and checks it). */
export const csrfField = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

export type FlashKind = 'success' | 'info' | 'error';

/** What only the adults behind a refusal need (who to tell, the error code), folded away under the page's way out. */
export const forAdults = (summary: string, body: Raw, code: string, t: Translator = ENGLISH) => html`<details class="for-adults">
<summary>${summary}</summary>
${body}
<p class="muted">${t.t('error.code')} <code>${code}</code></p>
</details>`;

/** A message after a redirect ("App registered"), shown once; an address in it breaks as emailAddress() says. */
export const flash = (message: string | Raw | undefined, kind: FlashKind = 'success') =>
  message ? html`<p class="flash flash-${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${typeof message === 'string' ? withAddresses(message) : message}</p>` : '';

export interface FieldOptions {
  name: string;
  label: string;
  value?: string | undefined;
  type?: 'text' | 'email' | 'password' | 'url' | 'search' | 'date' | 'number';
  /** This field's own error: shown under its label and tied to it for screen readers. */
  error?: string | undefined;
  hint?: string | Raw | undefined;
  required?: boolean;
  autocomplete?: string;
  maxlength?: number;
  autofocus?: boolean;
  /** Extra attributes, e.g. `inputmode="numeric"`. */
  attrs?: Raw;
}

/** The label, hint and error around one control, with the ids the control refers to. */
function fieldFrame(f: { name: string; label: string; error?: string | undefined; hint?: string | Raw | undefined },
  control: (id: string, aria: Raw) => Raw): Raw {
  const id = `f-${f.name}`;
  const described = [f.hint ? `${id}-hint` : '', f.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const aria = html`${described ? html` aria-describedby="${described}"` : ''}${f.error ? html` aria-invalid="true"` : ''}`;
  return html`<div class="field${f.error ? ' field-invalid' : ''}">
  <label for="${id}">${f.label}</label>
  ${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}
  ${f.error ? html`<p class="field-error" id="${id}-error">${f.error}</p>` : ''}
  ${control(id, aria)}
</div>`;
}

/** A labelled input with its hint and its error, each linked by aria-describedby. */
export function field(f: FieldOptions): Raw {
  return fieldFrame(f, (id, aria) => html`<input id="${id}" name="${f.name}" type="${f.type ?? 'text'}" value="${f.value ?? ''}"${
    f.required ? html` required` : ''}${f.autocomplete ? html` autocomplete="${f.autocomplete}"` : ''}${
    f.maxlength ? html` maxlength="${f.maxlength}"` : ''}${f.autofocus ? html` autofocus` : ''}${aria} ${f.attrs ?? ''}>`);
}

/** A multi-line field, marked up as field() is. */
export function textArea(f: { name: string; label: string; value?: string | undefined; error?: string | undefined; hint?: string; maxlength?: number }): Raw {
  return fieldFrame(f, (id, aria) => html`<textarea id="${id}" name="${f.name}" rows="4"${
    f.maxlength ? html` maxlength="${f.maxlength}"` : ''}${aria}>${f.value ?? ''}</textarea>`);
}

export interface Column<T> {
  heading: string;
  /** The heading is an identifier, shown as code (the guide's errors tables: `error`). */
  code?: boolean;
  cell: (row: T) => unknown;
}

/**
 * A data table with a caption (for screen readers) and a line for when there are no rows. On a phone each
 * row stacks into a block, each cell after the first under its column's name (`stack-table`, data-label),
 * so that nothing, a row's button least of all, ends up beyond the screen's edge. `region`: the box that
 * scrolls sideways (wider screens) is a labelled region keyboard users can scroll, as the guide's tables are.
 */
export function table<T>(caption: string, columns: Column<T>[], rows: readonly T[], empty: string, o: { region?: boolean } = {}): Raw {
  if (rows.length === 0) return html`<p class="muted empty">${empty}</p>`;
  return html`<div class="table-wrap stack-table"${o.region ? html` role="region" tabindex="0" aria-label="${caption}"` : ''}><table>
  <caption class="visually-hidden">${caption}</caption>
  <thead><tr>${columns.map((c) => html`<th scope="col">${c.code ? html`<code>${c.heading}</code>` : c.heading}</th>`)}</tr></thead>
  <tbody>${rows.map((r) => html`<tr>${columns.map((c) => html`<td data-label="${c.heading}">${c.cell(r)}</td>`)}</tr>`)}</tbody>
</table></div>`;
}

/**
 * A one-button form that POSTs (state changes are never links), with its CSRF token. Its look says what it
 * does: `danger`, filled red, for the final step of something that cannot be undone (a confirmation page, or
 * an action that is its own confirmation); `remove`, outlined red, for taking one row out of a list (a
 * token, a callback URL, a team member); `primary`, filled blue; otherwise outlined blue.
 */
export function postButton(action: string, csrf: string, label: string,
  opts: { danger?: boolean; remove?: boolean; primary?: boolean; hidden?: Record<string, string>; context?: string } = {}): Raw {
  const cls = opts.danger ? 'danger' : opts.remove ? 'remove' : opts.primary ? '' : 'secondary-button';
  return html`<form method="post" action="${action}" class="inline-form">
  ${csrfField(csrf)}${Object.entries(opts.hidden ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
  <button type="submit"${cls ? html` class="${cls}"` : ''}>${label}${opts.context ? html`<span class="visually-hidden"> ${opts.context}</span>` : ''}</button>
</form>`;
}

/**
 * Text that may break after one of `after`'s characters and nowhere else (not at a hyphen or a question mark):
 * each part kept whole (`.breakable > span`), a <wbr> between them. Never between two such characters
 * ("http:/|/"), nor after one that starts a word ("POST /|developer"): a line would end in a lone slash.
 */
function breakableParts(text: string, after: string): Raw {
  const chars = [...text];
  const parts = [''];
  chars.forEach((ch, i) => {
    parts[parts.length - 1] += ch;
    const next = chars[i + 1];
    if (!after.includes(ch) || next === undefined || after.includes(next)) return;
    const word = parts[parts.length - 1]!.split(/\s/).pop()!;
    if ([...word].some((c) => !after.includes(c))) parts.push('');
  });
  return html`${parts.filter(Boolean).map((part, i) => html`${i ? html`<wbr>` : ''}<span>${part}</span>`)}`;
}

/** Code that may break after one of `after`'s characters and nowhere else. */
export const breakableCode = (text: string, after: string) => html`<code class="breakable">${breakableParts(text, after)}</code>`;

/** A path or URL as code that may break after a slash and nowhere else. */
export const slashed = (text: string) => breakableCode(text, '/');

/** A host name that may break after a dot or a colon, never at a hyphen ("tables-|trainer.example"). */
export const hostName = (host: string) => html`<span class="breakable">${breakableParts(host, '.:')}</span>`;

/** An email address that may break after its @ or a dot, never at a hyphen ("ada-|phone@…"). */
/**
 * An address stored before invisible, direction and control characters were refused shows them written out
 * (`[U+202E]`): never hidden, never reordering the page (docs/security.md → Text people type).
 */
export const emailAddress = (address: string) => html`<span class="breakable">${breakableParts(showUnseen(address), '@.')}</span>`;

/** An email address inside a sentence: up to its last letter or digit (not the sentence's own "." or ";"). */
const ADDRESS = /[^\s@“”"]+@[^\s@“”"]*[\p{L}\p{N}]/gu;

/** Plain text, each email address in it as emailAddress() (a message naming the person invited). */
export function withAddresses(text: string): Raw {
  const parts: (string | Raw)[] = [];
  let last = 0;
  for (const m of text.matchAll(ADDRESS)) {
    parts.push(text.slice(last, m.index), emailAddress(m[0]));
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return html`${parts}`;
}

/** A value to copy: selectable by hand without JavaScript; copy.js (src/web/public) reveals the button where a clipboard exists. */
export const copyable = (id: string, value: string, label: string) => html`<div class="copy-row">
  <code id="${id}" class="copy-value">${value}</code>
  <button type="button" class="copy-button" data-copy="${id}" hidden>Copy<span class="visually-hidden"> ${label}</span></button>
</div>`;

/** The script behind every copy button (each page that has one loads it once). */
export const COPY_SCRIPT = html`<script src="/assets/copy.js" defer></script>`;

export interface HeaderLink {
  label: string;
  href: string;
  current?: boolean;
}

/**
 * The header of a signed-in area (src/web/area/area-frame.ts) and of the developer guide: the brand, the
 * navigation, and (signed in) who is signed in with a way out.
 */
export function areaHeader(brand: { href: string; sub: string }, label: string, links: HeaderLink[], user?: Raw): Raw {
  return html`<header class="dev-header">
<nav class="dev-nav" aria-label="${label}">
  <a class="dev-brand" href="${brand.href}"><span aria-hidden="true">🪪</span> Lanyard <span class="dev-brand-sub">${brand.sub}</span></a>
  <ul class="dev-nav-list scroll-strip">
    ${links.map((l) => html`<li><a href="${l.href}"${l.current ? html` aria-current="page"` : ''}>${l.label}</a></li>`)}
  </ul>
  ${user ?? ''}
</nav>
</header>`;
}

/** The developer area's header (its pages, and the guide at /docs). */
export const developerHeader = (label: string, links: HeaderLink[], user?: Raw): Raw =>
  areaHeader({ href: '/developer', sub: 'for developers' }, label, links, user);

/**
 * The schools a search found (the front door's picker and the sign-in screens'), each a link to `href(school)`,
 * with the count said to screen readers, or `noMatch` when there are none. Nothing before a search.
 */
export function schoolResults(query: string, results: readonly { slug: string; name: string }[], href: (slug: string) => string, noMatch: string,
  t: Translator = ENGLISH): Raw | string {
  if (!query) return '';
  if (!results.length) return html`<p role="status">${noMatch}</p>`;
  return html`<p class="visually-hidden" role="status">${t.t('signIn.schoolsFound', { count: results.length })}</p>
<ul class="choices" aria-label="${t.t('signIn.schools')}">${results.map((o) => html`
  <li><a class="choice" href="${href(o.slug)}">${o.name}</a></li>`)}
</ul>`;
}

/** A block of example code or output (escaped; keyboard users can scroll it: it takes focus). */
export const codeBlock = (text: string, label: string) =>
  html`<pre class="docs-code" tabindex="0" aria-label="${label}"><code>${text.trim()}</code></pre>`;
