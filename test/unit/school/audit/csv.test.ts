import { parse } from 'csv-parse/sync';
import t from 'tap';
import type { AuditEvent } from '../../../../adapters/store.js';
import { auditCsv, auditCsvRow } from '../../../../src/school/audit/audit-csv.js';
import type { AuditNames } from '../../../../src/school/audit/audit-names.js';
import { csvCell, csvLine, UTF8_BOM } from '../../../../src/school/audit/csv.js';

/** The audit trail's CSV (docs/school-console.md → Audit and usage): RFC 4180, read back by csv-parse, formulas neutralised. */

const names = {
  className: (id: string | undefined) => (id === 'c1' ? 'Class, "A"' : undefined),
  appName: (id: string | undefined) => (id === 'app1' ? 'Times Tables' : undefined),
  learn: async () => {},
} as unknown as AuditNames;

const event = (o: Partial<AuditEvent>): AuditEvent => ({ id: 'e1', organisationId: 'o1', at: '2025-03-04T09:15:00.000Z', kind: 'sign_in', action: 'sign_in', count: 1, ...o });

t.test('a cell that a spreadsheet would run as a formula starts with a quote mark', async (t) => {
  for (const start of ['=', '+', '-', '@', '\t', '\r']) {
    t.equal(csvCell(`${start}HYPERLINK("http://evil")`).replace(/^"|"$/g, '').startsWith(`'${start}`), true, `a cell starting with ${JSON.stringify(start)}`);
  }
  t.equal(csvCell('Ada'), 'Ada', 'plain text as it is');
  t.equal(csvCell('a=b'), 'a=b', 'an = inside is harmless');
  t.equal(csvCell(3), '3', 'numbers as they are');
  t.equal(csvCell(undefined), '', 'absent: empty');
});

t.test('quotes, commas and line breaks are quoted as RFC 4180 says', async (t) => {
  t.equal(csvCell('Smith, Jo'), '"Smith, Jo"');
  t.equal(csvCell('say "hi"'), '"say ""hi"""');
  t.equal(csvCell('two\nlines'), '"two\nlines"');
  t.equal(csvLine(['a', 'b']), 'a,b\r\n', 'CRLF line ends');
});

t.test('the export reads back, cell for cell, with csv-parse: names as recorded, formulas neutralised', async (t) => {
  const events = [
    event({ actorId: 'u1', actorName: '=cmd|" /C calc"!A0', subjectId: 'u1', subjectName: '=cmd|" /C calc"!A0', method: 'emoji', deviceKind: 'classroom', clientId: 'app1', result: 'success', source: '10.0.0.1' }),
    event({ id: 'e2', kind: 'sign_in_failed', result: 'wrong_credential', count: 7, subjectName: 'Zoë O’Brien, "Jr"', classId: 'c1', aggregate: 'k' }),
    event({ id: 'e3', kind: 'console', action: 'user.suspended', actorName: '@SUM(1+1)', detail: { via: 'api', note: '-2+3' } }),
  ];
  async function* pages() { yield events.slice(0, 2); yield events.slice(2); }
  let text = '';
  for await (const chunk of auditCsv(pages(), names)) text += chunk;
  t.ok(text.startsWith(UTF8_BOM), 'marked as UTF-8');
  const rows: Record<string, string>[] = parse(text, { bom: true, columns: true });
  t.equal(rows.length, 3);
  t.equal(rows[0]!.actor_name, `'=cmd|" /C calc"!A0`, 'a formula is text');
  t.equal(rows[0]!.app, 'Times Tables');
  t.equal(rows[0]!.client_id, 'app1');
  t.equal(rows[0]!.method, 'emoji');
  t.equal(rows[0]!.device_kind, 'classroom');
  t.equal(rows[1]!.subject_name, 'Zoë O’Brien, "Jr"', 'quotes and commas survive');
  t.equal(rows[1]!.count, '7', 'a merged row says its count');
  t.equal(rows[1]!.class, `Class, "A"`);
  t.equal(rows[2]!.actor_name, `'@SUM(1+1)`);
  t.equal(rows[2]!.detail, 'via=api; note=-2+3');
  t.equal(auditCsvRow(events[2]!, names).split(',')[0], '2025-03-04T09:15:00.000Z');
});
