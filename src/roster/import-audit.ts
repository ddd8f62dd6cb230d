import type { RosterImportRun, Store } from '../../adapters/store.js';
import { OPERATOR } from '../audit/audit-people.js';
import type { AuditInput, AuditRecorder } from '../audit/audit-recorder.js';

/** Who applied an import, for the audit trail: a member of staff in the console; the operator when not given. */
export interface ImportActor { id: string; name: string }

/**
 * An applied import in each covered school's audit trail (docs/storage.md → The audit trail): the run, its
 * format and what it counted (`users.added`, `classes.leaving`, … where not 0). Only a record of the fact: a
 * school that cannot be read now is left out, and the import stands.
 */
export async function recordImport(store: Pick<Store, 'findOrganisation'>, audit: AuditRecorder, run: RosterImportRun, by?: ImportActor): Promise<void> {
  const detail: Record<string, string> = { run: run.id, format: run.format };
  for (const [kind, counts] of Object.entries(run.counts)) {
    for (const [what, n] of Object.entries(counts)) if (n && what !== 'unchanged') detail[`${kind}.${what}`] = String(n);
  }
  const who: Pick<AuditInput, 'actorId' | 'actorName'> = by ? { actorId: by.id, actorName: by.name } : OPERATOR;
  for (const slug of run.organisations) {
    const organisation = await store.findOrganisation(slug).catch(() => undefined);
    if (organisation) audit.record({ organisationId: organisation.id, at: run.at, kind: 'import', action: 'roster.applied', ...who, detail });
  }
}
