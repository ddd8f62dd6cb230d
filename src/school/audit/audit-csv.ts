import type { AuditEvent } from '../../../adapters/store.js';
import type { AuditNames } from './audit-names.js';
import { csvLine, UTF8_BOM } from './csv.js';
import { detailLine } from './audit-words.js';

/**
 * A school's audit trail as CSV (docs/school-console.md → Audit and usage): one line per event (a merged row of
 * failures says its count), the stable codes rather than the page's words, names as recorded then, the class's
 * and app's names now beside their ids. Written page by page, so an export of a year costs no more memory than
 * one page.
 */

const HEADER = [
  'at', 'kind', 'action', 'actor_id', 'actor_name', 'subject_id', 'subject_name', 'method', 'device_kind', 'client_id', 'app',
  'class_id', 'class', 'result', 'count', 'source', 'detail',
];

export const auditCsvRow = (e: AuditEvent, names: AuditNames): string => csvLine([
  e.at, e.kind, e.action, e.actorId, e.actorName, e.subjectId, e.subjectName, e.method, e.deviceKind, e.clientId, names.appName(e.clientId),
  e.classId, names.className(e.classId), e.result, e.count, e.source, detailLine(e.detail),
]);

/** The file: its header, then each page's lines as they come. */
export async function* auditCsv(pages: AsyncIterable<AuditEvent[]>, names: AuditNames): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(HEADER);
  for await (const page of pages) {
    await names.learn(page.map((e) => e.clientId));
    yield page.map((e) => auditCsvRow(e, names)).join('');
  }
}
