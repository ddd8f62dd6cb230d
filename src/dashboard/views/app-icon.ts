import { createHash } from 'node:crypto';
import type { StoredClient } from '../../../adapters/store.js';
import { logoPath } from '../../clients/logo-image.js';
import { html, type Raw } from '../../web/html.js';

/**
 * Colours for generated icons: each with white text at a contrast ratio of at least 4.5:1 (WCAG AA), so
 * the letters are readable whatever colour an app draws.
 */
const COLOURS = ['#1d4ed8', '#7c3aed', '#be185d', '#b91c1c', '#9a3412', '#15803d', '#0f766e', '#0e7490', '#4338ca', '#6d28d9'];

/** Up to two letters from the app's name: "Reading Rocket" → "RR", "maths" → "M". */
export function initials(name: string): string {
  const words = name.trim().split(/[\s\-_]+/u).filter((w) => /\p{L}|\p{N}/u.test(w));
  const first = (w: string) => [...w].find((ch) => /\p{L}|\p{N}/u.test(ch)) ?? '';
  return words.slice(0, 2).map(first).join('').toLocaleUpperCase('en') || '?';
}

/** The same colour for an app every time (from its client_id), on every instance. */
export const iconColour = (clientId: string): string =>
  COLOURS[createHash('sha256').update(clientId).digest()[0]! % COLOURS.length]!;

/**
 * An app's icon on a tile: its logo when Lanyard holds a copy (served from Lanyard's origin, never the app's
 * host: docs/security.md → App logos), over a generated icon (its initials on its colour) that shows when it
 * has none or the logo does not load. Decorative: the tile names the app in text.
 */
export function appIcon(client: StoredClient): Raw {
  const logo = logoPath(client);
  return html`<span class="app-icon app-icon-${COLOURS.indexOf(iconColour(client.clientId))}" aria-hidden="true">
    <span class="app-icon-letters">${initials(client.name)}</span>${logo
    ? html`<img class="app-icon-logo" src="${logo}" alt="" loading="lazy" width="96" height="96">` : ''}
  </span>`;
}

/** The CSS classes app-icon-0 … app-icon-9 (src/web/public/lanyard.css): colours outside inline styles (CSP: style-src 'self'). */
export const ICON_COLOURS: readonly string[] = COLOURS;
