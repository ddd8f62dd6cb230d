import type { AuditKind, RosterClass, User } from '../../adapters/store.js';
import { maySignIn } from '../accounts/account-status.js';
import { personName } from '../audit/audit-people.js';
import type { Paper } from '../badges/label-layout.js';
import { issuePrinted } from '../cards/printed-issue.js';
import { credentialRefusalText, credentialsChangeable, type SchoolAccess } from './access.js';
import { type ActionVia, viaDetail } from './action-via.js';
import type { SchoolDeps } from './deps.js';
import { SchoolInputError } from './errors.js';
import { recordPersonChange } from './person-audit.js';
import { signPersonOut } from './person-sign-out.js';

/**
 * What a teacher (or a school admin) does for one pupil, a selection or a whole class (docs/school-console.md
 * → Helping a pupil, Printing): print new badges or emoji cards (each printed credential is new: the one
 * before stops working, and whoever was signed in with it is signed out), void badges, unlock, sign out
 * everywhere. Who may act on whom is decided before (src/school/access.ts); each pupil acted on is one event
 * in the school's audit trail, with the member of staff as its actor and the class when one was acted on.
 */
export type PupilAction = 'badges' | 'emoji-cards' | 'void-badges' | 'unlock' | 'sign-out';
export const PUPIL_ACTIONS: readonly PupilAction[] = ['badges', 'emoji-cards', 'void-badges', 'unlock', 'sign-out'];
export const isPupilAction = (v: unknown): v is PupilAction => PUPIL_ACTIONS.includes(v as PupilAction);

/** Actions that issue a credential and answer with the PDF that holds it. */
export const PRINTS: ReadonlySet<PupilAction> = new Set(['badges', 'emoji-cards']);

/**
 * Actions that change how a pupil signs in: done only for those access.ts lets the member of staff change
 * (credentialsChangeable: never oneself, another school's person, or someone who is staff at another school too).
 */
export const CHANGES_CREDENTIALS: ReadonlySet<PupilAction> = new Set(['badges', 'emoji-cards', 'void-badges', 'unlock']);

/** Who acts, where, and for which class; through /school/api or not (ActionVia). */
export interface Acting extends ActionVia {
  deps: SchoolDeps;
  actor: User;
  school: SchoolAccess;
  inClass?: RosterClass | undefined;
}

/** What an action did: a message for the next page, and the PDF for a print. */
export interface ActionDone {
  message: string;
  pdf?: { body: Buffer; filename: string } | undefined;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One audit event per pupil acted on. */
export function recordEach(on: Acting, users: readonly User[], kind: AuditKind, action: string, detail?: Record<string, string>): void {
  for (const user of users) recordPersonChange(on.deps, on.school, on.actor, user, kind, action, { classId: on.inClass?.id, ...viaDetail(on, detail) });
}

/** A file name for a PDF: ASCII letters, digits and hyphens (the class's title or the pupil's username). */
export const fileName = (what: string, whose: string): string =>
  `${what}-${whose.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').toLowerCase() || 'pupils'}.pdf`;

/**
 * Runs the action for `users` (access.ts personOf or classPupils first). One that changes how they sign in
 * leaves out those whose credentials are not changed here, and says so; SchoolInputError when that is all of them.
 * A print answers with its PDF.
 */
export async function runPupilAction(action: PupilAction, on: Acting, users: readonly User[], o: { paper?: Paper } = {}): Promise<ActionDone> {
  if (!CHANGES_CREDENTIALS.has(action)) return run(action, on, users, o);
  const { allowed, refused } = await credentialsChangeable(on.deps.store, on.school, users, on.actor);
  if (!allowed.length) {
    const one = refused.length === 1 ? refused[0]! : undefined;
    throw new SchoolInputError(one ? credentialRefusalText(one.refusal, one.user) : `Nothing was done: ${NOT_CHANGED}.`);
  }
  const done = await run(action, on, allowed, o);
  if (!refused.length) return done;
  return { ...done, message: `${done.message} Left out: ${refused.map((r) => personName(r.user)).join(', ')} (${NOT_CHANGED}).` };
}

/** Why some are left out of an action that changes how they sign in. */
export const NOT_CHANGED = 'they belong to another school, or are staff at another school too, so how they sign in is not changed here';

async function run(action: PupilAction, on: Acting, users: readonly User[], o: { paper?: Paper }): Promise<ActionDone> {
  const { store, throttle } = on.deps;
  switch (action) {
    case 'badges':
    case 'emoji-cards':
      return print(action, on, users, o.paper ?? 'letter');
    case 'void-badges': {
      const voided: User[] = [];
      for (const user of users) if (await store.revokeBadges({ userId: user.id }) > 0) voided.push(user);
      recordEach(on, voided, 'credential', 'badge.voided');
      return { message: voided.length ? `${plural(voided.length, 'badge')} voided: they no longer sign in.` : 'None of them had a badge: nothing was voided.' };
    }
    case 'unlock':
      for (const user of users) await throttle.unlock(user.organisationId, user.username);
      recordEach(on, users, 'console', 'account.unlocked');
      return { message: `${users.length === 1 ? personName(users[0]!) : plural(users.length, 'pupil')} unlocked: they can sign in again from any device.` };
    case 'sign-out':
      for (const user of users) await signPersonOut(on.deps, on.school, on.actor, user.id, { classId: on.inClass?.id, via: on.via });
      return { message: `${users.length === 1 ? personName(users[0]!) : plural(users.length, 'pupil')} signed out everywhere.` };
  }
}

/**
 * New badges or emoji passwords for those of `users` who may sign in, and the PDF that holds them (never
 * kept: it is the answer to the form). Those who may not (suspended, or left the school's roster) are left out.
 */
async function print(action: 'badges' | 'emoji-cards', on: Acting, users: readonly User[], paper: Paper): Promise<ActionDone> {
  const able = users.filter(maySignIn);
  const left = users.length - able.length;
  if (!able.length) throw new SchoolInputError(`${users.length === 1 ? `${personName(users[0]!)} cannot` : 'None of them can'} sign in (suspended, or left the school's roster): nothing was printed.`);
  const method = action === 'badges' ? 'badge' : 'emoji';
  const issued = await issuePrinted(on.deps.store, able, method, { organisation: on.school.organisation, inClass: on.inClass, paper, signInAt: on.deps.issuer });
  const stored = issued.stored.map((p) => p.user);
  recordEach(on, stored, 'credential', action === 'badges' ? 'badge.issued' : 'emoji.issued', { printed: action === 'badges' ? 'badge sheet' : 'emoji cards' });
  const what = action === 'badges' ? plural(stored.length, 'new badge') : plural(stored.length, 'new emoji password');
  const notes = [
    left ? `${plural(left, 'pupil')} who cannot sign in ${left === 1 ? 'was' : 'were'} left out.` : '',
    issued.failed.length ? `${plural(issued.failed.length, 'pupil')} could not be given one (${issued.failed.map((f) => personName(f.prepared.user)).join(', ')}): theirs ${issued.failed.length === 1 ? 'is' : 'are'} as before; try again.` : '',
  ].filter(Boolean).join(' ');
  const whose = on.inClass?.title ?? (able.length === 1 ? able[0]!.username : on.school.organisation.slug);
  return {
    message: `${what} printed; earlier ones no longer work.${notes ? ` ${notes}` : ''}`,
    pdf: { body: issued.pdf, filename: fileName(action === 'badges' ? 'badges' : 'emoji-cards', whose) },
  };
}
