import { setFlagsFromString } from 'node:v8';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import { parseTypeOverrides } from '../config/roster.js';
import { command, type Group, JSON_OPTION } from './command.js';

/** The commands' work, loaded only when one runs (`lanyard --help` stays quick). */
const work = () => import('./run-roster.js');
const reader = async () => (await import('../roster/read/read-roster.js')).readRoster;

const org = { type: 'string', placeholder: 'SLUG', description: 'the organisation (its slug)' } as const;
const wait = {
  type: 'string', placeholder: 'SECONDS', default: '60', description: 'how long to wait for another roster import under way (then exit 75)',
} as const;

/**
 * An import holds a district's files and its stored roster in memory at once. V8's memory-saving mode (set
 * for this command's process only) keeps the resident memory of 50,000 people and 200,000 enrolments under
 * 400 MB, at some speed (measured on SQLite: about 280 MB and 12 s for the first import, 330 MB and 8 s for an
 * unchanged one, against 430 MB and 480 MB without it): otherwise V8 lets garbage grow past that.
 */
const leanHeap = () => setFlagsFromString('--optimize-for-size');

const seconds = (text: string): number => {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 3600) throw new Error('--wait is a number of seconds, 0 to 3600');
  return n;
};

/** `lanyard roster …`: the school's information system into Lanyard (docs/rostering.md). */
export const rosterCommands: Group = {
  name: 'roster',
  summary: "import a school's roster (OneRoster CSV or the one-file CSV); delete leavers",
  commands: [
    command({
      name: 'import',
      summary: 'compare an export with Lanyard, print the plan, and apply it (organisations, classes, users, enrolments, leavers)',
      details: `PATH is a OneRoster 1.1 or 1.2 CSV export (a zip or a folder with manifest.csv) or a one-file CSV.
Nothing is applied while the plan has an error (exit 65), nor with --dry-run. People absent from a bulk
users file leave: they cannot sign in and are deleted after the retention period (roster.retention_days).
A plan that would make more than roster.mass_removal_percent of a school leave, or newly disable them,
or remove more than that share of its classes, is refused (exit 65) unless --allow-mass-removal is given. See docs/rostering.md.`,
      args: [{ name: 'PATH', description: 'the export: a zip, a folder or a CSV file', required: true }],
      options: {
        org: { ...org, description: 'the existing organisation a single-school export or a one-file CSV is for' },
        'dry-run': { type: 'flag', description: 'print the plan; write nothing' },
        json: { ...JSON_OPTION, description: 'print one JSON object: counts, errors, applied' },
        'allow-mass-removal': { type: 'flag', description: 'apply a plan that makes more than the set share of a school leave, disabled, or its classes removed' },
        types: {
          type: 'list', placeholder: 'ROLE=TYPE,…',
          description: "this import's user type for a OneRoster role, over roster.types (e.g. teacher=employee)",
        },
        wait,
      },
      run: async ({ args: [path], options }) => {
        leanHeap();
        process.exitCode = await (await work()).importRosterCommand(loadConfig(), systemClock, await reader(), path!, {
          org: options.org, types: parseTypeOverrides(options.types ?? []), dryRun: options['dry-run'], json: options.json, allowMassRemoval: options['allow-mass-removal'], wait: seconds(options.wait),
        });
      },
    }),
    command({
      name: 'history',
      summary: 'the applied roster imports, newest first: when, who, format, digest, organisations, what changed',
      options: {
        limit: { type: 'string', placeholder: 'N', default: '20', description: 'at most this many (default 20)' },
        json: JSON_OPTION,
      },
      run: async ({ options }) => {
        const limit = Number(options.limit);
        if (!/^\d+$/.test(options.limit) || limit < 1 || limit > 10_000) throw new Error('--limit is a number from 1 to 10000');
        await (await import('./run-roster-history.js')).rosterHistoryCommand(loadConfig(), systemClock, { limit, json: options.json });
      },
    }),
    command({
      name: 'purge',
      summary: 'delete leavers held for longer than the retention period (--all: every leaver of the organisation now)',
      details: `Deletes their record, credentials, badges, sessions and tokens; their ids are never reused. A running
Lanyard does this by itself once an hour; run it from cron where no server runs, or to free a leaver's username.`,
      options: {
        org: { ...org, description: 'only this organisation\'s leavers' },
        all: { type: 'flag', description: 'every leaver of the organisation (needs --org), however recent' },
        'dry-run': { type: 'flag', description: 'list who would be deleted; delete nothing' },
        wait,
      },
      run: async ({ options }) => {
        process.exitCode = await (await work()).purgeRosterCommand(loadConfig(), systemClock, {
          org: options.org, all: options.all, dryRun: options['dry-run'], wait: seconds(options.wait),
        });
      },
    }),
  ],
};
