import { html, type Raw } from '../../web/html.js';
import type { Today } from '../audit/today.js';
import { schoolPath } from './school-layout.js';

/** “Today: 42 sign-ins, 3 failed”, a link to today's sign-ins in the audit trail (for a school's admins). */
export function todayLine(slug: string, today: Today): Raw {
  const signIns = today.signIns === 1 ? '1 sign-in' : `${today.signIns} sign-ins`;
  const failed = today.failures ? `, ${today.failures} failed` : '';
  return html`<p class="today-line">Today so far: <a href="${schoolPath(slug, '/audit')}?from=${today.day}&amp;to=${today.day}&amp;kind=sign_in">${signIns}</a>${failed}
· <a href="${schoolPath(slug, '/audit')}?from=${today.day}&amp;to=${today.day}">everything today</a></p>`;
}
