import { rosterSettings } from '../config/roster.js';
import { LanyardError } from '../errors.js';
import { type ImportOptions, importRoster, type ImportResult } from '../roster/import-roster.js';
import { planFingerprint } from '../roster/plan/plan-fingerprint.js';
import { changesNothing } from '../roster/plan/plan-types.js';
import { readRoster } from '../roster/read/read-roster.js';
import type { SchoolAccess } from './access.js';
import type { StaffAccount } from './area.js';
import type { SchoolDeps } from './deps.js';
import { fullName } from './names.js';
import type { RosterUpload, ShownPlan } from './roster-uploads.js';

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

function importOptions(deps: SchoolDeps, school: SchoolAccess, who: StaffAccount): ImportOptions {
  return {
    read: readRoster, clock: deps.clock, settings: rosterSettings(deps.config.file), by: `console:${who.user.username}`,
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
export async function planUpload(deps: SchoolDeps, school: SchoolAccess, who: StaffAccount, upload: RosterUpload): Promise<ShownPlan> {
  const result = await run(upload, () => importRoster(deps.store, upload.path, { ...importOptions(deps, school, who), dryRun: true }));
  return shownPlan(result, deps.clock.now());
}

/**
 * Applies the upload's plan, the mass removal confirmed or not, unless the plan made now under the roster
 * lock differs from the one shown (`stale`). RosterBusyError when another import holds the lock too long.
 * An applied import is recorded in the school's audit trail by importRoster (src/roster/import-audit.ts):
 * `roster.applied`, by this admin, with the file's name and the counts.
 */
export async function applyUpload(
  deps: SchoolDeps, school: SchoolAccess, who: StaffAccount, upload: RosterUpload & { plan: ShownPlan }, allowMassRemoval: boolean,
): Promise<ImportResult> {
  return run(upload, () => importRoster(deps.store, upload.path, {
    ...importOptions(deps, school, who), allowMassRemoval, expect: upload.plan.fingerprint,
    audit: deps.audit, actor: { id: who.id, name: fullName(who.user) }, fileName: upload.name,
    massRemovalConfirmed: upload.plan.massRemoval.length > 0,
  }));
}
