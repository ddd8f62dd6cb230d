import { randomUUID } from 'node:crypto';
import type { Organisation, RosterImportRun, Store, User } from '../../adapters/store.js';
import { newId } from '../../adapters/store/ids.js';
import type { Clock } from '../clock.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { RosterSettings } from '../config/roster.js';
import { failureReason, LanyardError } from '../errors.js';
import { mapOrganisations } from './plan/organisations.js';
import { planFingerprint } from './plan/plan-fingerprint.js';
import { planRoster } from './plan/plan-roster.js';
import { changesNothing, countsOf, type Plan, PLAN_KINDS, type PlanContext } from './plan/plan-types.js';
import { type ImportActor, recordImport } from './import-audit.js';
import { deleteLeavers, findLeavers, retentionCutoff } from './retention.js';
import { type AdminChanges, adminNote, applyAdminGrants, planAdminGrants } from './roster-admins.js';
import { withRosterLock } from './roster-lock.js';
import { type ReadProgress, type RosterSource, SOURCE_KINDS } from './source.js';

/**
 * `lanyard roster import` as a service (docs/rostering.md → Importing): read the files, compare them with the
 * store (the plan), and, when the plan has no error and this is not a dry run, apply it all or nothing.
 * The files are read first; the plan is made and applied holding the roster lock, against what the store
 * holds then, so two imports at once never apply a plan made against data the other changed (the second
 * waits, then plans against the first's result). Planning once, inside the lock, rather than before it and
 * again inside it, keeps one stored roster and one plan in memory at a time: a district's are each tens of
 * megabytes. An import that changes nothing writes nothing and records no run. Then the roster's school
 * admins are kept in step (src/roster/roster-admins.ts), and the covered organisations' leavers past the
 * retention period are deleted.
 */

/** Reads an export (src/roster/read/): given here so the service does not depend on the formats. */
export type RosterReader = (path: string, o: { org?: string | undefined; progress?: ReadProgress | undefined }) => Promise<RosterSource>;

export interface ImportOptions {
  read: RosterReader;
  clock: Clock;
  settings: RosterSettings;
  /** Who runs it: `cli:<os user>`, or `console:<username>` for a school admin in the console (`api:<username>` through its API). */
  by: string;
  /** `--org SLUG`. */
  org?: string | undefined;
  dryRun?: boolean | undefined;
  allowMassRemoval?: boolean | undefined;
  /**
   * Apply only a plan with this fingerprint (planFingerprint): the plan a person was shown and confirmed. When
   * the store has changed since so that the plan made now differs, nothing is written and `stale` says so.
   */
  expect?: string | undefined;
  progress?: ReadProgress | undefined;
  /** Says each step after reading (planning, applying) as it begins. */
  onStep?: ((text: string) => void) | undefined;
  /** How long to wait for another import under way before refusing (RosterBusyError). */
  lockWaitMs: number;
  /** Where an applied import is recorded, in each school it covers (none: not recorded). */
  audit?: AuditRecorder | undefined;
  /** Who applies it, for that record: a member of staff in the console; the operator when left out. */
  actor?: ImportActor | undefined;
  /** The export's name for that record (the console: the name it was uploaded under); left out when not given. */
  fileName?: string | undefined;
  /**
   * The person confirmed the mass removal of the plan they were shown (the console's box; the plan applied with
   * allowMassRemoval has no guard errors left to tell): recorded as `mass_removal`, with allowMassRemoval.
   */
  massRemovalConfirmed?: boolean | undefined;
  /** More of that record's detail (the console's API: `via`). */
  auditDetail?: Record<string, string> | undefined;
}

export interface ImportResult {
  plan: Plan;
  /** Whether the changes were written (false: a dry run, an error, or nothing to change). */
  applied: boolean;
  /** The run recorded, when applied. */
  run?: RosterImportRun | undefined;
  /** Leavers deleted because their retention period was over. */
  purged: User[];
  /**
   * Why deleting those leavers failed, after the import itself was applied (or had nothing to change): the
   * import stands, a note says so, and the next import or `lanyard roster purge` tries again.
   */
  purgeError?: string | undefined;
  /** The admin grants that keep the roster's school admins in step: made, or (a dry run) that would be. */
  admins?: AdminChanges | undefined;
  /** Why writing those grants failed, after the import itself was applied: a note says so, the next import tries again. */
  adminsError?: string | undefined;
  format: RosterSource['format'];
  /** The plan made now is not the one expected (ImportOptions.expect): nothing was written. */
  stale?: boolean | undefined;
}

export async function importRoster(store: Store, path: string, o: ImportOptions): Promise<ImportResult> {
  const target = o.org === undefined ? undefined : await store.findOrganisation(o.org);
  if (o.org !== undefined && (!target || target.slug !== o.org.toLowerCase())) {
    throw new LanyardError('not_found', `no organisation with the slug "${o.org}"`, 404, true);
  }
  const source = await o.read(path, { org: o.org, progress: o.progress });
  const base = { applied: false, purged: [], format: source.format };
  // A dry run, or files the reader already refused, change nothing: planned without the lock.
  if (o.dryRun || source.errors.length) {
    o.onStep?.('planning…');
    const result: ImportResult = { ...base, plan: await planAgainst(store, source, target, o) };
    if (!result.plan.errors.length) await keepAdmins(store, result, o, false);
    return result;
  }
  o.onStep?.('planning (after any other import under way)…');
  return withRosterLock(store, o.lockWaitMs, async () => {
    const plan = await planAgainst(store, source, target && (await store.findOrganisation(target.id)), o);
    const result: ImportResult = { ...base, plan };
    if (o.expect !== undefined && planFingerprint(plan) !== o.expect) return { ...result, stale: true };
    if (plan.errors.length) return result;
    if (!changesNothing(plan.changes)) {
      o.onStep?.('applying…');
      const run: RosterImportRun = {
        id: randomUUID(), at: o.clock.now().toISOString(), by: o.by, format: source.format, digest: source.digest,
        organisations: plan.organisations, counts: Object.fromEntries(PLAN_KINDS.map((k) => [k, countsOf(plan.kinds[k])])),
      };
      releaseRecords(source); // planned: the files' records are not needed while the store writes
      await store.applyRoster({ ...plan.changes, run });
      result.applied = true;
      result.run = run;
      if (o.audit) {
        const massRemovalAllowed = (o.allowMassRemoval ?? false) && (o.massRemovalConfirmed ?? false);
        await recordImport(store, o.audit, run, { actor: o.actor, file: o.fileName, massRemovalAllowed, detail: o.auditDetail });
      }
    }
    await keepAdmins(store, result, o, true);
    await purgeExpired(store, plan, o, result);
    return result;
  });
}

/**
 * Deletes the covered organisations' leavers past retention. A failure here does not undo or hide the import
 * that was just applied: it is kept in `purgeError` and a note, and `purged` lists only those deleted.
 */
async function purgeExpired(store: Store, plan: Plan, o: ImportOptions, result: ImportResult): Promise<void> {
  const deleted: User[] = [];
  try {
    const covered = (await Promise.all(plan.organisations.map((slug) => store.findOrganisation(slug)))).filter((x) => x !== undefined);
    for (const u of await findLeavers(store, retentionCutoff(o.clock, o.settings.retentionDays), covered.map((x) => x.id))) {
      await deleteLeavers(store, o.clock, [u]);
      deleted.push(u);
    }
  } catch (err) {
    result.purgeError = failureReason(err);
    plan.notes.push(`deleting the leavers past the retention period failed (${result.purgeError}): \`lanyard roster purge\` tries again`);
  }
  result.purged = deleted;
}

/**
 * Keeps the admin grants of source `roster` in step with the files' administrators (`write`: after the changes
 * are written; else only says what would change). A failure after the import was applied does not undo or
 * hide it: it is kept in `adminsError` and a note, and the next import tries again.
 */
async function keepAdmins(store: Store, result: ImportResult, o: ImportOptions, write: boolean): Promise<void> {
  const { plan } = result;
  try {
    const organisations = await allOrganisations(store);
    const covered = organisations.filter((x) => plan.organisations.includes(x.slug));
    const changes = await planAdminGrants(store, plan.admins, covered, o.clock.now().toISOString());
    if (write) await applyAdminGrants(store, changes);
    result.admins = changes;
    const slugs = new Map([...plan.changes.organisations, ...organisations].map((x) => [x.id, x.slug]));
    const note = await adminNote(store, plan.admins, changes, (id) => slugs.get(id) ?? id);
    if (note) plan.notes.push(note);
  } catch (err) {
    if (!write) throw err;
    result.adminsError = failureReason(err);
    plan.notes.push(`keeping the roster's school admins in step failed (${result.adminsError}): the next import tries again`);
  }
}

/** Lets the memory of the files' records go (a district's are a hundred megabytes) once they are planned. */
function releaseRecords(source: RosterSource): void {
  for (const kind of SOURCE_KINDS) source[kind] = [];
}

/** Plans the files against the store as it is now: its organisations, then the stored roster of those the files cover. */
async function planAgainst(store: Store, source: RosterSource, target: Organisation | undefined, o: ImportOptions): Promise<Plan> {
  const context: PlanContext = {
    organisations: await allOrganisations(store),
    target,
    settings: o.settings,
    now: o.clock.now().toISOString(),
    allowMassRemoval: o.allowMassRemoval ?? false,
    newId: (kind) => (kind === 'o' || kind === 'u' ? newId(kind) : `${kind}${randomUUID().replace(/-/g, '')}`),
  };
  const mapping = mapOrganisations(source, context);
  const covered = [...mapping.covered, ...mapping.reached].filter((org) => !org.isNew).map((org) => org.id);
  return planRoster(source, await store.rosterSnapshot(covered), context, mapping);
}

/** Every organisation (the store's search with an empty query matches all). */
const allOrganisations = (store: Store): Promise<Organisation[]> => store.searchOrganisations('', 1_000_000);
