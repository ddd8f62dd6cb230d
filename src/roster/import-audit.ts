import type { RosterImportRun, Store } from '../../adapters/store.js';
import { OPERATOR } from '../audit/audit-people.js';
import type { AuditInput, AuditRecorder } from '../audit/audit-recorder.js';

/** Who applied an import, for the audit trail: a member of staff in the console; the operator when not given. */
export interface ImportActor { id: string; name: string }

/** What the record says besides the run: who applied it, and, from the console, the file and its confirmed mass removal. */
export interface ImportRecord {
  /** The operator when left out. */
  actor?: ImportActor | undefined;
  /** The export's name as uploaded (never where it is kept): `file`. */
  file?: string | undefined;
  /** The plan's mass removal was confirmed and applied: `mass_removal` = `allowed`. */
  massRemovalAllowed?: boolean | undefined;
  /** More detail, as given (the console's API: `via` = `api`). */
  detail?: Record<string, string> | undefined;
}

/**
 * An applied import in each covered school's audit trail (docs/storage.md → The audit trail): the run, the
 * file when named, its format, what it counted (`users.added`, `classes.leaving`, … where not 0), and
 * `mass_removal` when one was confirmed. Only a record of the fact: a school that cannot be read now is left
 * out, and the import stands.
 */
export async function recordImport(store: Pick<Store, 'findOrganisation'>, audit: AuditRecorder, run: RosterImportRun, o: ImportRecord = {}): Promise<void> {
  const detail: Record<string, string> = { run: run.id, ...(o.file !== undefined ? { file: o.file } : {}), format: run.format };
  for (const [kind, counts] of Object.entries(run.counts)) {
    for (const [what, n] of Object.entries(counts)) if (n && what !== 'unchanged') detail[`${kind}.${what}`] = String(n);
  }
  if (o.massRemovalAllowed) detail.mass_removal = 'allowed';
  Object.assign(detail, o.detail);
  const who: Pick<AuditInput, 'actorId' | 'actorName'> = o.actor ? { actorId: o.actor.id, actorName: o.actor.name } : OPERATOR;
  for (const slug of run.organisations) {
    const organisation = await store.findOrganisation(slug).catch(() => undefined);
    if (organisation) audit.record({ organisationId: organisation.id, at: run.at, kind: 'import', action: 'roster.applied', ...who, detail });
  }
}
