import { Readable } from 'node:stream';
import t from 'tap';
import { readTable, type Row } from '../../../../src/roster/read/csv-table.js';
import { Problems } from '../../../../src/roster/read/problems.js';

/** The CSV layer: records as spreadsheets write them, each with the line it starts on; problems collected. */

async function table(text: string | Buffer, o: { chunk?: number; maxBytes?: number; progress?: (f: string, n: number, d: boolean) => void } = {}) {
  const problems = new Problems(100);
  const rows: { line: number; fields: string[]; name?: string | undefined }[] = [];
  let header: string[] = [];
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += o.chunk ?? 7) chunks.push(bytes.subarray(i, i + (o.chunk ?? 7)));
  const read = await readTable(Readable.from(chunks), {
    header: (names) => { header = names; return true; },
    row: (row: Row) => { rows.push({ line: row.line, fields: [...row.fields], name: row.get('name') }); },
  }, { problems, file: 'x.csv', maxBytes: o.maxBytes ?? 1e9, maxRecordChars: 1e6, progress: o.progress });
  return { read, rows, header, errors: problems.list() };
}

t.test('BOM, CRLF, quoted commas, quotes and line breaks; each record\'s first line', async (t) => {
  const r = await table('\uFEFFid, name ,note\r\n1,"Smith, Ann","said ""hi"""\r\n2,"Two\r\nlines","and\r\nmore\r\nlines"\r\n\r\n3,Cat,\r\n,,\r\n4,Dan,x');
  t.same(r.errors, []);
  t.same(r.header, ['id', 'name', 'note'], 'header names trimmed, the BOM gone');
  t.same(r.rows.map((x) => [x.line, x.fields[0], x.name]), [[2, '1', 'Smith, Ann'], [3, '2', 'Two\r\nlines'], [8, '3', 'Cat'], [10, '4', 'Dan']],
    'a record after quoted line breaks and an empty line starts on its own line; a row of empty fields is skipped; no final line end needed');
  t.equal(r.rows[0]!.fields[2], 'said "hi"');
  t.equal(r.read.rows, 4);
  t.ok(r.read.whole);
  t.match(r.read.sha256, /^[0-9a-f]{64}$/);
});

t.test('LF only: the same lines', async (t) => {
  const r = await table('id,name\n1,"a\nb"\n2,c\n');
  t.same(r.rows.map((x) => x.line), [2, 4]);
});

t.test('problems: wrong field count, unclosed quote, duplicate header, UTF-16, empty, too large', async (t) => {
  const r = await table('id,name,name\n1,a\n2,b,c\n3,"open,x\n');
  t.same(r.errors, [
    { file: 'x.csv', line: 1, column: 'name', message: 'the column name appears twice in the header' },
    { file: 'x.csv', line: 2, column: '', message: 'this row has 2 fields where the header has 3' },
    { file: 'x.csv', line: 4, column: '', message: 'a quoted field opened here is never closed' },
  ]);
  t.same(r.rows.map((x) => x.line), [3], 'the good row is still read');
  const utf16 = await table(Buffer.from('\uFEFFid,name\r\n1,a\r\n', 'utf16le'));
  t.same(utf16.errors, [{ file: 'x.csv', line: 0, column: '', message: 'the file is UTF-16 text: save it as "CSV UTF-8"' }]);
  t.notOk(utf16.read.whole);
  const empty = await table('');
  t.same(empty.errors, [{ file: 'x.csv', line: 0, column: '', message: 'the file is empty: a CSV file starts with its header' }]);
  const large = await table(`id\n${'1\n'.repeat(100)}`, { maxBytes: 50 });
  t.same(large.errors, [{ file: 'x.csv', line: 0, column: '', message: 'file too large: more than 50 bytes' }], 'a stream past the limit is stopped');
  t.notOk(large.read.whole);
});

t.test('progress every 1000 rows and at the end', async (t) => {
  const calls: [string, number, boolean][] = [];
  await table(`id\n${'1\n'.repeat(2500)}`, { chunk: 4096, progress: (f, n, d) => calls.push([f, n, d]) });
  t.same(calls, [['x.csv', 1000, false], ['x.csv', 2000, false], ['x.csv', 2500, true]]);
});
