import type { Organisation } from '../../../adapters/store.js';
import { personName } from '../../audit/audit-people.js';
import { areaLayout } from '../../web/area/area-frame.js';
import { html, type Raw } from '../../web/html.js';
import { schoolFrame, type SchoolNav, type StaffSignedIn } from '../area.js';

/** The school a page is of, as the frame needs it. */
export interface PageSchool {
  organisation: Pick<Organisation, 'slug' | 'name'>;
  admin: boolean;
}


/**
 * A console page: the signed-in area's frame with the school's menu (src/school/area.ts schoolFrame), the
 * school's name above the page's own heading, the person's name and Sign out.
 */
export function schoolLayout(title: string, body: Raw, who: StaffSignedIn, school?: PageSchool, current?: SchoolNav): string {
  const frame = schoolFrame(school ? { slug: school.organisation.slug, admin: school.admin } : undefined);
  const heading = school ? html`<p class="school-context">${school.organisation.name}</p>` : '';
  return areaLayout(frame, school ? `${title} · ${school.organisation.name}` : title, html`${heading}${body}`, { name: personName(who.account.user), csrf: who.csrf }, current);
}

/** The console's address of a school's page: `/school/<slug>` and what follows. */
export const schoolPath = (slug: string, rest = ''): string => `/school/${encodeURIComponent(slug)}${rest}`;
