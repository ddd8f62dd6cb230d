import type { HelpCode, RosterClass, User } from '../../adapters/store.js';
import { classPupils, personOf, type SchoolAccess } from './access.js';
import { type ActionVia, viaDetail } from './action-via.js';
import type { SchoolDeps } from './deps.js';
import { NotInSchoolError, SchoolInputError } from './errors.js';
import { helpCodeRefusalText, issuerName } from './help-code-panel.js';
import { recordPersonChange } from './person-audit.js';
import type { ListedHelpCode } from './views/help-code-pages.js';

/**
 * Help codes as staff give them (docs/school-console.md → Help codes), for the console's pages and /school/api
 * alike: a teacher for their classes' pupils, a school admin for anyone of the school (access.ts personOf: anyone
 * else is a 404). Every change is in the audit trail, `help_code.issued` and `help_code.cancelled`, never the code.
 */

/** A code given: the pupil, the code (shown once, kept nowhere), and until when. */
export interface GivenHelpCode {
  pupil: User;
  code: string;
  expiresAt: Date;
}

/**
 * Gives the pupil a new code, replacing theirs; SchoolInputError for someone who cannot be given one here (oneself,
 * a member of staff of any school: codes are for pupils only; src/accounts/help-codes.ts helpCodeRefusal).
 */
export async function issueHelpCode(deps: SchoolDeps, school: SchoolAccess, actor: User, userId: string, o: ActionVia = {}): Promise<GivenHelpCode> {
  const pupil = await personOf(deps.store, school, userId);
  const issued = await deps.helpCodes.issue(pupil, school.organisation.id, actor.id);
  if ('refused' in issued) throw new SchoolInputError(helpCodeRefusalText(issued.refused, pupil));
  record(deps, school, actor, pupil, 'help_code.issued', o, { expiresAt: issued.expiresAt.toISOString() });
  return { pupil, code: issued.code, expiresAt: issued.expiresAt };
}

/** Cancels the pupil's live code; `cancelled` is false when they had none. */
export async function cancelHelpCode(deps: SchoolDeps, school: SchoolAccess, actor: User, userId: string, o: ActionVia = {}): Promise<{ pupil: User; cancelled: boolean }> {
  const pupil = await personOf(deps.store, school, userId);
  const cancelled = await deps.helpCodes.cancel(pupil.id);
  if (cancelled) record(deps, school, actor, pupil, 'help_code.cancelled', o);
  return { pupil, cancelled };
}

/**
 * The school's live codes this member of staff may see, soonest to expire first: an admin every one of the
 * school; a teacher those of their classes' pupils (personOf decides, as for every person). `inClass`: only
 * that class's pupils (a class they may see: classOf first).
 */
export async function liveHelpCodes(deps: SchoolDeps, school: SchoolAccess, inClass?: RosterClass): Promise<ListedHelpCode[]> {
  const codes = await deps.helpCodes.list(school.organisation.id);
  return visibleCodes(deps, school, codes, inClass && await classPupils(deps.store, school, inClass));
}

async function visibleCodes(deps: SchoolDeps, school: SchoolAccess, codes: HelpCode[], among?: User[]): Promise<ListedHelpCode[]> {
  const only = among && new Set(among.map((u) => u.id));
  const names = new Map<string, Promise<string>>();
  const listed: ListedHelpCode[] = [];
  for (const code of codes) {
    if (only && !only.has(code.userId)) continue;
    const pupil = await personOf(deps.store, school, code.userId).catch((err: unknown) => {
      if (err instanceof NotInSchoolError) return undefined;
      throw err;
    });
    if (!pupil) continue;
    if (!names.has(code.issuedBy)) names.set(code.issuedBy, issuerName(deps, code.issuedBy));
    listed.push({ pupil, issuedBy: await names.get(code.issuedBy)!, expiresAt: new Date(code.expiresAt) });
  }
  return listed;
}

function record(deps: SchoolDeps, school: SchoolAccess, actor: User, pupil: User, action: string, o: ActionVia, detail?: Record<string, string>): void {
  recordPersonChange(deps, school, actor, pupil, 'credential', action, viaDetail(o, detail));
}
