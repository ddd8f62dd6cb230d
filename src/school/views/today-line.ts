import { html, type Raw } from '../../web/html.js';
import type { Today } from '../audit/today.js';
import { schoolPath } from './school-layout.js';

/** “Today so far: 42 sign-ins, 3 failed. Who signed in today” (a link to them in the audit trail), for a school's admins. */
export function todayLine(slug: string, today: Today): Raw {
  const signIns = today.signIns === 1 ? '1 sign-in' : `${today.signIns} sign-ins`;
  const failed = today.failures ? `, ${today.failures} failed` : '';
  return html`<p class="today-line">Today so far: <strong>${signIns}</strong>${failed}.
<a href="${schoolPath(slug, '/audit')}?from=${today.day}&amp;to=${today.day}&amp;kind=sign_in">Who signed in today</a></p>`;
}
