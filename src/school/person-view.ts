import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../adapters/store.js';
import { personName } from '../audit/audit-people.js';
import { parseEmojiPassword } from '../formats/emoji-bank.js';
import { html } from '../web/html.js';
import { sendHtml } from '../web/http.js';
import { credentialRefusal, credentialRefusalText, maySeeClass, type SchoolAccess } from './access.js';
import { area, type StaffSignedIn } from './area.js';
import type { SchoolDeps } from './deps.js';
import { helpCodePanel } from './help-code-panel.js';
import { personFacts } from './person-facts.js';
import { grantsOf } from './staff-roles.js';
import { personAdminPanel, type AdminPanelOptions, type Revealed } from './views/person-admin-panel.js';
import { personPageBody } from './views/person-page.js';
import { classPath } from './views/pupil-parts.js';
import { pupilHelpPanel } from './views/pupil-help-panel.js';
import { schoolLayout, schoolPath } from './views/school-layout.js';

/**
 * A person's page (docs/school-console.md → Helping a pupil, People and staff): for a teacher, a pupil of their
 * classes with what a teacher does to help them sign in; for a school admin, anyone of the school, with that and
 * what only an admin does besides.
 */

/** The address of a person's page, and what follows it. */
export const personPath = (slug: string, userId: string, rest = ''): string => schoolPath(slug, `/people/${encodeURIComponent(userId)}${rest}`);

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
  const base = personPath(slug, user.id);
  const { admin } = s.school;
  const [facts, grants] = await Promise.all([personFacts(deps, s.school, user), admin ? grantsOf(deps, s.school, user.id) : []]);
  const granters = new Map<string, string>();
  for (const id of new Set(grants.map((g) => g.grantedBy).filter((x): x is string => !!x))) {
    const granter = await deps.store.findUser(id);
    if (granter) granters.set(id, personName(granter));
  }
  const self = user.id === s.who.account.id;
  // How they sign in is changed here only when access.ts allows it (not oneself, not another school's, not staff elsewhere).
  const refusal = await credentialRefusal(deps.store, s.school, user, s.who.account.user);
  const help = pupilHelpPanel({
    base, csrf: s.who.csrf, facts, newEmoji: !admin && !refusal,
    // An admin's panel says why itself; a teacher's page says it here.
    refused: refusal && { why: admin ? undefined : credentialRefusalText(refusal, user) },
  });
  const helpCode = await helpCodePanel(deps, s.school, user, s.who, base);
  // What only an admin may do (credentials of every kind, suspension, staff roles) follows.
  const adminPanel = admin ? personAdminPanel({
    base, csrf: s.who.csrf, user, self, ownSchool: facts.ownSchool, staffElsewhere: refusal === 'staff_elsewhere', grants, granters,
    passwordError: o.passwordError,
  }) : '';
  // A teacher comes from the class: the way back is to it (the first of theirs, if several).
  const klass = admin ? undefined : facts.classes.find((c) => maySeeClass(s.school, c.id));
  const body = personPageBody(slug, facts, {
    actions: html`${help}${helpCode}${adminPanel}`, revealed: o.status ? undefined : await revealed(deps, req, reply, s.who, user.id),
    flash: area(deps).flash.take(req, reply), error: o.error, card: { action: `${base}/emoji-card`, csrf: s.who.csrf },
    back: admin ? undefined : klass ? { href: classPath(slug, klass), label: klass.title } : { href: schoolPath(slug), label: 'Classes' },
  });
  return sendHtml(reply, o.status ?? 200, schoolLayout(personName(user), body, s.who, s.school, admin ? 'people' : 'classes'));
}
