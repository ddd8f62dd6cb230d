import type { RosterImportRun } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { withConfiguredStore } from './configured-store.js';
import { type CommandOutput, STANDARD_OUTPUT } from './output.js';
import { tableLines } from './table.js';

/** Each kind's added/changed/leaving, as `users +3 ~1 -2`; kinds with nothing of those left out. */
function changed(counts: RosterImportRun['counts']): string {
  const parts = Object.entries(counts)
    .filter(([, c]) => c.added || c.changed || c.leaving)
    .map(([kind, c]) => `${kind} +${c.added} ~${c.changed} -${c.leaving}`);
  return parts.join(', ') || 'nothing';
}

/**
 * `lanyard roster history [--limit N] [--json]`: the applied roster imports, newest first — when, who ran it,
 * the format, the files' digest, the organisations and what changed. An import that changed nothing wrote
 * nothing and is not there.
 */
export async function rosterHistoryCommand(
  config: Config, clock: Clock, o: { limit: number; json: boolean }, io: CommandOutput = STANDARD_OUTPUT,
): Promise<void> {
  const runs = await withConfiguredStore(config, clock, (store) => store.listRosterImports(o.limit));
  if (o.json) {
    io.out(JSON.stringify(runs));
    return;
  }
  if (!runs.length) {
    io.out('no roster import has been applied');
    return;
  }
  const lines = tableLines([
    ['WHEN (UTC)', 'BY', 'FORMAT', 'DIGEST', 'ORGANISATIONS', 'CHANGED (+added ~changed -leaving)'],
    ...runs.map((r) => [r.at.slice(0, 19).replace('T', ' '), r.by, r.format, r.digest.slice(0, 12), r.organisations.join(', '), changed(r.counts)]),
  ]);
  for (const line of lines) io.out(line);
}
