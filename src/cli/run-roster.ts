import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { type RosterSettings, rosterSettings } from '../config/roster.js';
import { LanyardError } from '../errors.js';
import { importRoster, type RosterReader } from '../roster/import-roster.js';
import { purgeLeavers, retentionCutoff } from '../roster/retention.js';
import { RosterBusyError } from '../roster/roster-lock.js';
import { commandUser } from './command-user.js';
import { withAuditedStore, withConfiguredStore } from './configured-store.js';
import { type CommandOutput, STANDARD_OUTPUT } from './output.js';
import { importProgress } from './roster-progress.js';
import { failedJson, purgedLine, rosterJson, summaryLines } from './roster-summary.js';
import { findTargets } from './targets.js';

/** Exit statuses (sysexits.h): the files hold bad data (or a refused mass removal); another import is running. */
export const EX_DATAERR = 65;
export const EX_TEMPFAIL = 75;

export interface RosterImportOptions {
  org?: string | undefined;
  dryRun: boolean;
  json: boolean;
  allowMassRemoval: boolean;
  /** This import's OneRoster role → user type, over the file's `roster.types` (`--types`). */
  types?: Record<string, string>;
  /** Seconds to wait for another import. */
  wait: number;
}

/** The settings with one import's own role → type pairs over the file's. */
const withTypes = (s: RosterSettings, types: Record<string, string> | undefined): RosterSettings =>
  (types && Object.keys(types).length ? { ...s, types: { ...s.types, ...types } } : s);

/**
 * `lanyard roster import PATH`: reads the export, prints the plan, and applies it unless it has errors or
 * this is a dry run. Exit status 65 when there are errors (nothing applied), 75 when another import held the
 * store for longer than --wait, 1 when PATH is not a roster that can be read (or --org names no organisation).
 * With --json each of these prints exactly one JSON object too. When deleting the leavers past retention fails
 * after the import was applied, the import stands: exit 0, a note in the summary and a warning on stderr.
 */
export async function importRosterCommand(
  config: Config, clock: Clock, read: RosterReader, path: string, o: RosterImportOptions,
  io: CommandOutput = STANDARD_OUTPUT, stderr: NodeJS.WriteStream = process.stderr,
): Promise<number> {
  const progress = importProgress(stderr, { quiet: o.json });
  try {
    const result = await withAuditedStore(config, clock, (store, audit) => importRoster(store, path, {
      read, clock, settings: withTypes(rosterSettings(config.file), o.types), by: commandUser(), org: o.org, dryRun: o.dryRun,
      allowMassRemoval: o.allowMassRemoval, progress: progress.read, onStep: progress.step, lockWaitMs: o.wait * 1000, audit,
    }));
    progress.end();
    if (o.json) io.out(JSON.stringify(rosterJson(result)));
    else for (const line of summaryLines(result, { path, dryRun: o.dryRun })) io.out(line);
    if (result.purgeError !== undefined) {
      io.err(`lanyard: warning: the import stands, but deleting the leavers past the retention period failed (${result.purgeError}): run \`lanyard roster purge\``);
    }
    return result.plan.errors.length ? EX_DATAERR : 0;
  } catch (err) {
    progress.end();
    // Another import at work, or nothing that can be read as a roster: said as one line, or one JSON object.
    if (!(err instanceof LanyardError && err.expose)) throw err;
    if (o.json) io.out(JSON.stringify(failedJson(path, err.message)));
    else io.err(`lanyard: ${err.message}`);
    return err instanceof RosterBusyError ? EX_TEMPFAIL : 1;
  }
}

export interface RosterPurgeOptions { org?: string | undefined; all: boolean; dryRun: boolean; wait: number }

/**
 * `lanyard roster purge [--org SLUG] [--all] [--dry-run]`: deletes the leavers whose hold began more than
 * retention_days ago (with --all, every leaver of the organisation now); their ids are never reused.
 */
export async function purgeRosterCommand(config: Config, clock: Clock, o: RosterPurgeOptions, io: CommandOutput = STANDARD_OUTPUT): Promise<number> {
  if (o.all && !o.org) throw new Error('--all deletes every leaver of one organisation: give --org SLUG');
  const days = rosterSettings(config.file).retentionDays;
  try {
    return await withConfiguredStore(config, clock, async (store) => {
      const organisation = o.org === undefined ? undefined : (await findTargets(store, o.org)).organisation;
      const before = o.all ? clock.now().toISOString() : retentionCutoff(clock, days);
      const leavers = await purgeLeavers(store, clock, {
        before, organisationIds: organisation && [organisation.id], dryRun: o.dryRun, lockWaitMs: o.wait * 1000,
      });
      const where = organisation ? `of ${organisation.slug}` : 'of any organisation';
      const why = o.all ? where : `${where} held since before ${before.slice(0, 10)} (retention_days: ${days})`;
      if (!leavers.length) io.out(`no leavers ${why}: nothing to delete`);
      else io.out(purgedLine(leavers, o.dryRun ? 'would delete' : 'deleted', why));
      if (leavers.length && !o.dryRun) io.out('their credentials, badges, sessions and tokens are gone; their ids are never reused');
      return 0;
    });
  } catch (err) {
    if (!(err instanceof RosterBusyError)) throw err;
    io.err(`lanyard: ${err.message}`);
    return EX_TEMPFAIL;
  }
}
