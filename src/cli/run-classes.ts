import type { ClassSummary } from '../../adapters/store.js';
import { withConfiguredStore } from './configured-store.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { badgeName } from '../badges/badge-name.js';
import { tableLines } from './table.js';
import { type CommandOutput, STANDARD_OUTPUT } from './output.js';
import { findTargets } from './targets.js';

/** One class as `lanyard classes list --json` prints it. */
export interface ClassListing {
  id: string;
  sourcedId: string;
  title: string;
  classCode: string | null;
  teachers: { id: string; name: string }[];
  pupils: number;
}

const listing = (c: ClassSummary): ClassListing => ({
  id: c.id,
  sourcedId: c.sourcedId,
  title: c.title,
  classCode: c.classCode ?? null,
  teachers: c.teachers.map((t) => ({ id: t.userId, name: badgeName(t) })),
  pupils: c.pupils,
});

/**
 * `lanyard classes list --org SLUG [--json]`: the organisation's classes, by title: id, sourcedId, title,
 * teachers' names and how many pupils (students) are enrolled.
 */
export async function listClassesCommand(config: Config, clock: Clock, o: { org: string; json?: boolean | undefined }, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation } = await findTargets(store, o.org);
    const classes = (await store.listClasses(organisation.id)).map(listing);
    if (o.json) return io.out(JSON.stringify(classes, null, 2));
    if (!classes.length) return io.out(`${organisation.name} has no classes (a roster import brings them: docs/rostering.md)`);
    const rows = [['ID', 'SOURCED ID', 'TITLE', 'TEACHERS', 'PUPILS'],
      ...classes.map((c) => [c.id, c.sourcedId, c.title, c.teachers.map((t) => t.name).join(', ') || '-', String(c.pupils)])];
    for (const line of tableLines(rows, (column) => column === 4)) io.out(line);
  });
}
