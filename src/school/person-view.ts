import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../adapters/store.js';
import { parseEmojiPassword } from '../formats/emoji-bank.js';
import { html } from '../web/html.js';
import { sendHtml } from '../web/http.js';
import type { SchoolAccess } from './access.js';
import { area, type StaffSignedIn } from './area.js';
import type { SchoolDeps } from './deps.js';
import { helpCodePanel } from './help-code-panel.js';
import { fullName } from './names.js';
import { personFacts } from './person-facts.js';
import { grantsOf } from './staff-roles.js';
import { personAdminPanel, type AdminPanelOptions, type Revealed } from './views/person-admin-panel.js';
import { personPageBody } from './views/person-page.js';
import { schoolLayout, schoolPath } from './views/school-layout.js';

/** A person's page as a school admin sees it (docs/school-console.md → People and staff). */

/** The address of a person's page. */
export const personPath = (slug: string, userId: string): string => schoolPath(slug, `/people/${encodeURIComponent(userId)}`);

/** Which one-time value a reveal holds: the new emoji password or password of this person. */
export const revealName = (kind: Revealed['kind'], userId: string): string => `${kind}:${userId}`;

/** The credential made for the person on the request before, if this session has it to show (once). */
async function revealed(deps: SchoolDeps, req: FastifyRequest, reply: FastifyReply, who: StaffSignedIn, userId: string): Promise<Revealed | undefined> {
  const emoji = await area(deps).reveals.take(req, reply, who.session.key, revealName('emoji', userId));
  if (emoji !== undefined) return { kind: 'emoji', names: parseEmojiPassword(emoji) };
  const password = await area(deps).reveals.take(req, reply, who.session.key, revealName('password', userId));
  return password === undefined ? undefined : { kind: 'password', value: password };
}

export async function showPerson(
  deps: SchoolDeps, req: FastifyRequest, reply: FastifyReply, s: { who: StaffSignedIn; school: SchoolAccess }, user: User,
  o: { status?: number; error?: string; passwordError?: AdminPanelOptions['passwordError'] } = {},
): Promise<FastifyReply> {
  const slug = s.school.organisation.slug;
  const [facts, grants] = await Promise.all([personFacts(deps, s.school, user), grantsOf(deps, s.school, user.id)]);
  const granters = new Map<string, string>();
  for (const id of new Set(grants.map((g) => g.grantedBy).filter((x): x is string => !!x))) {
    const granter = await deps.store.findUser(id);
    if (granter) granters.set(id, fullName(granter));
  }
  const self = user.id === s.who.account.id;
  const actions = html`${personAdminPanel({
    base: personPath(slug, user.id), csrf: s.who.csrf, user, self, ownSchool: facts.ownSchool, grants, granters,
    passwordError: o.passwordError,
  })}${self ? '' : await helpCodePanel(deps, s.school, user, s.who, personPath(slug, user.id))}`;
  const body = personPageBody(slug, facts, {
    actions, revealed: o.status ? undefined : await revealed(deps, req, reply, s.who, user.id), flash: area(deps).flash.take(req, reply), error: o.error,
  });
  return sendHtml(reply, o.status ?? 200, schoolLayout(fullName(user), body, s.who, s.school, 'people'));
}
