import { areaHeader, postButton } from '../components.js';
import { html, type Raw } from '../html.js';
import { layout } from '../layout.js';

/**
 * A signed-in area's page frame: the layout with the area's navigation, the person's name and a one-click
 * Sign out. One short word a link, so that the menu fits a phone's width whole rather than scrolling.
 */
export interface NavItem<Id extends string> {
  id: Id;
  label: string;
  href: string;
}

export interface AreaFrame<Id extends string> {
  /** The navigation's accessible name. */
  label: string;
  /** The brand's link and the words beside "Lanyard" (for developers, …). */
  brand: { href: string; sub: string };
  nav: readonly NavItem<Id>[];
  /** Where Sign out posts. */
  signOut: string;
}

export function areaLayout<Id extends string>(
  frame: AreaFrame<Id>, title: string, body: Raw, who: { name: string; csrf: string }, current?: Id,
): string {
  const nav = areaHeader(frame.brand, frame.label, frame.nav.map((n) => ({ ...n, current: n.id === current })), html`<div class="dev-nav-user">
    <span class="dev-nav-name">${who.name}</span>
    ${postButton(frame.signOut, who.csrf, 'Sign out')}
  </div>`);
  return layout(title, body, { nav, wide: true });
}
