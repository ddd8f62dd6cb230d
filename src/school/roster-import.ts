import type { RosterImportRun, User } from '../../adapters/store.js';
import { personName } from '../audit/audit-people.js';
import { rosterSettings } from '../config/roster.js';
import { LanyardError } from '../errors.js';
import { type ImportOptions, importRoster, type ImportResult } from '../roster/import-roster.js';
import { planFingerprint } from '../roster/plan/plan-fingerprint.js';
import { changesNothing } from '../roster/plan/plan-types.js';
import { readRoster } from '../roster/read/read-roster.js';
import type { SchoolAccess } from './access.js';
import { type ActionVia, viaDetail } from './action-via.js';
import type { SchoolDeps } from './deps.js';
import { type RosterUpload, rosterUploads, type ShownPlan } from './roster-uploads.js';

/**
 * A school admin's roster import (docs/school-console.md → The roster): the uploaded file planned against the
 * store as `lanyard roster import --org <this school>` plans it (a one-file CSV, or one school's OneRoster
 * export; a district's export naming other schools is refused as --org refuses it), then applied only while
 * the plan made under the roster lock is still the one shown (planFingerprint).
 */

/** How long Apply waits for another import under way before saying so. */
export const APPLY_LOCK_WAIT_MS = 5_000;

/** What a file that is not a roster at all is refused with, naming the file as uploaded (never our path). */
export class UnreadableUpload extends LanyardError {
  constructor(message: string) {
    super('roster_unreadable', message, 400, true);
    this.name = 'UnreadableUpload';
  }
}

/** The import's record says who ran it: `console:<username>`, or `api:<username>` through /school/api. */
function importOptions(deps: SchoolDeps, school: SchoolAccess, actor: User, o: ActionVia): ImportOptions {
  return {
    read: readRoster, clock: deps.clock, settings: rosterSettings(deps.config.file), by: `${o.via ?? 'console'}:${actor.username}`,
    org: school.organisation.slug, lockWaitMs: APPLY_LOCK_WAIT_MS,
  };
}

/** The import run as the reader's errors name the file: the upload's own name in place of where it is kept. */
async function run(upload: RosterUpload, work: () => Promise<ImportResult>): Promise<ImportResult> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof LanyardError && err.code.startsWith('roster_') && err.code !== 'roster_busy') {
      throw new UnreadableUpload(err.message.replaceAll(upload.path, upload.name));
    }
    throw err;
  }
}

/** What the page shows of an import's plan. */
export function shownPlan(result: ImportResult, plannedAt: Date): ShownPlan {
  const { plan } = result;
  return {
    kinds: plan.kinds, errors: plan.errors, massRemoval: plan.massRemoval, notes: plan.notes, organisations: plan.organisations,
    format: result.format, fingerprint: planFingerprint(plan), changes: !changesNothing(plan.changes), plannedAt: plannedAt.toISOString(),
  };
}

/** Plans the upload against the store as it is now (nothing written); UnreadableUpload for a file that is no roster. */
export async function planUpload(deps: SchoolDeps, school: SchoolAccess, actor: User, upload: RosterUpload, o: ActionVia = {}): Promise<ShownPlan> {
  const result = await run(upload, () => importRoster(deps.store, upload.path, { ...importOptions(deps, school, actor, o), dryRun: true }));
  return shownPlan(result, deps.clock.now());
}

/**
 * Applies the upload's plan, the mass removal confirmed or not, unless the plan made now under the roster
 * lock differs from the one shown (`stale`). RosterBusyError when another import holds the lock too long.
 * An applied import is recorded in the school's audit trail by importRoster (src/roster/import-audit.ts):
 * `roster.applied`, by this admin, with the file's name and the counts.
 */
export async function applyUpload(
  deps: SchoolDeps, school: SchoolAccess, actor: User, upload: RosterUpload & { plan: ShownPlan }, allowMassRemoval: boolean, o: ActionVia = {},
): Promise<ImportResult> {
  return run(upload, () => importRoster(deps.store, upload.path, {
    ...importOptions(deps, school, actor, o), allowMassRemoval, expect: upload.plan.fingerprint,
    audit: deps.audit, actor: { id: actor.id, name: personName(actor) }, fileName: upload.name,
    massRemovalConfirmed: upload.plan.massRemoval.length > 0, auditDetail: viaDetail(o).detail,
  }));
}

/**
 * What Apply of a planned upload came to (the console's plan page, POST /school/api/…/roster):
 * - `elsewhere`: the record is in the store, the file on another machine (sticky sessions; nothing changed);
 * - `file_changed`: the kept file is not the one planned any more (it is discarded; nothing changed);
 * - `plan_errors`: the plan has errors besides the mass-removal guard's (nothing can be applied);
 * - `mass_removal`: the guard tripped and the removal was not confirmed (nothing changed);
 * - `stale`: the roster changed since the plan was made, so nothing was applied: `upload.plan` is the plan now;
 * - `done`: applied (the upload is discarded), or nothing to change.
 */
export type ApplyOutcome =
  | { outcome: 'elsewhere' | 'file_changed' | 'plan_errors' | 'mass_removal' | 'stale' }
  | { outcome: 'done'; result: ImportResult };

/** Applies a planned upload with the page's checks first (ApplyOutcome). RosterBusyError when another import is at work. */
export async function applyPlanned(
  deps: SchoolDeps, school: SchoolAccess, actor: User, upload: RosterUpload & { plan: ShownPlan }, allowMassRemoval: boolean, o: ActionVia = {},
): Promise<ApplyOutcome> {
  const uploads = rosterUploads(deps);
  if (!(await uploads.here(upload))) return { outcome: 'elsewhere' };
  if (!(await uploads.unchanged(upload))) {
    await uploads.discard(upload);
    return { outcome: 'file_changed' };
  }
  if (upload.plan.errors.length > upload.plan.massRemoval.length) return { outcome: 'plan_errors' };
  if (upload.plan.massRemoval.length && !allowMassRemoval) return { outcome: 'mass_removal' };
  const result = await applyUpload(deps, school, actor, upload, allowMassRemoval, o);
  if (result.stale || result.plan.errors.length) {
    await uploads.setPlan(upload, shownPlan(result, deps.clock.now()));
    return { outcome: 'stale' };
  }
  await uploads.discard(upload);
  return { outcome: 'done', result };
}

/** Imports read to find this school's (the store lists every school's, newest first). */
const HISTORY_SCAN = 500;

/** The school's applied imports, newest first, at most `limit`: those whose export covered it. */
export async function rosterHistory(deps: SchoolDeps, school: SchoolAccess, limit: number): Promise<RosterImportRun[]> {
  const slug = school.organisation.slug;
  return (await deps.store.listRosterImports(HISTORY_SCAN)).filter((r) => r.organisations.includes(slug)).slice(0, limit);
}
