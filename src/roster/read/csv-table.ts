import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse, type CsvError } from 'csv-parse';
import type { ReadProgress } from '../source.js';
import type { Problems } from './problems.js';

/** Rows between two progress calls. */
const PROGRESS_EVERY = 1000;

/**
 * One record of a CSV file while it is read: the same object is refilled for every record (no object per
 * row), so a reader takes what it keeps out of it before the next. `line` is the file's 1-based line where
 * the record starts (a quoted field may hold line breaks: the next record starts further down).
 */
export class Row {
  fields: string[] = [];
  line = 0;

  constructor(
    readonly file: string,
    private readonly columns: ReadonlyMap<string, number>,
    private readonly problems: Problems,
  ) {}

  /** Whether the header has this column. */
  has(column: string): boolean {
    return this.columns.has(column);
  }

  /** The column's value, trimmed; undefined when it is empty or the file has no such column. */
  get(column: string): string | undefined {
    const index = this.columns.get(column);
    if (index === undefined) return undefined;
    const value = this.fields[index]?.trim();
    return value === '' ? undefined : value;
  }

  /** Records a problem with this row (or one of its columns: '' for the row as a whole). */
  problem(column: string, message: string, value?: string): void {
    this.problems.add(this.file, this.line, column, message, value);
  }
}

/** What a reader of one kind of file does with it. */
export interface TableReader {
  /**
   * The header's names (trimmed; the columns are these, in this order). Returns false when the file cannot
   * be read with it (a required column is missing: it says so through `problems`); its rows are skipped.
   */
  header(names: string[], problems: Problems, file: string): boolean;
  /** One record (never the header; never a row of empty fields, which spreadsheets leave at the end). */
  row(row: Row): void;
}

export interface TableOptions {
  problems: Problems;
  progress?: ReadProgress | undefined;
  /** The file's name as reported (in the export). */
  file: string;
  /** More bytes than this and the file is refused as too large. */
  maxBytes: number;
  /** The file's size when known beforehand (a folder's file, a zip entry): progress shows the share read. */
  size?: number | undefined;
  /** The longest record, in characters. */
  maxRecordChars: number;
  /** Columns are looked up in lower case (`Row.get('username')` finds a `Username` column). */
  lowerCaseColumns?: boolean | undefined;
  /** Called with each chunk's size before it is parsed; returns false to stop reading (the export is too large). */
  take?: ((bytes: number) => boolean) | undefined;
}

export interface TableRead {
  /** sha256 of the file's bytes, hex. */
  sha256: string;
  bytes: number;
  rows: number;
  /** Whether every row was handed to the reader (false: refused, empty, or a header it could not read with). */
  whole: boolean;
}

const lineBreaks = (fields: readonly string[]): number => {
  let n = 0;
  for (const field of fields) {
    for (let i = field.indexOf('\n'); i !== -1; i = field.indexOf('\n', i + 1)) n++;
  }
  return n;
};

const allEmpty = (fields: readonly string[]): boolean => fields.every((f) => f.trim() === '');

/** csv-parse's problem, said for a school's administrator (its codes: csv-parse's documentation). */
function csvProblem(err: CsvError): string {
  switch (err.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      return `this row has ${(err.record as unknown as string[] | undefined)?.length ?? 'a different number of'} fields where the header has ${err.message.match(/expect (\d+)/)?.[1] ?? 'another number'}`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field opened here is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'a quoted field is followed by more text before the next comma (a quote inside a field is written twice: "")';
    case 'CSV_MAX_RECORD_SIZE':
      return 'this row is too long (an unclosed quote?)';
    default:
      return `not valid CSV: ${err.message}`;
  }
}

/**
 * Reads one CSV file as RFC 4180 with what spreadsheets add: a UTF-8 byte-order mark, CRLF or LF line ends,
 * quoted fields with commas, quotes and line breaks in them, empty lines and trailing rows of empty fields.
 * The first record is the header. Every row is handed to the reader as it is parsed (nothing is kept here);
 * a malformed row is a problem and the rest of the file is still read. The bytes are hashed on the way.
 */
export async function readTable(input: Readable, reader: TableReader, o: TableOptions): Promise<TableRead> {
  const { problems, file } = o;
  const hash = createHash('sha256');
  let bytes = 0;
  let rows = 0;
  let row: Row | undefined;
  let skipRows = false;
  let lastLine = 0; // the line the previous record ended on
  let emptyLines = 0;
  let first = true;

  const startOf = (fields: readonly string[] | undefined, empties: number): number => {
    const start = lastLine + 1 + (empties - emptyLines);
    emptyLines = empties;
    lastLine = start + (fields ? lineBreaks(fields) : 0);
    return start;
  };

  const parser = parse({
    bom: true,
    relax_column_count: false,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: o.maxRecordChars,
    on_record: (fields: string[], context) => {
      const line = startOf(fields, context.empty_lines);
      if (!row) {
        const names = fields.map((f) => f.trim());
        const columns = new Map<string, number>();
        names.forEach((header, i) => {
          const name = o.lowerCaseColumns ? header.toLowerCase() : header;
          if (name === '') return;
          if (columns.has(name)) problems.add(file, line, name, `the column ${name} appears twice in the header`);
          else columns.set(name, i);
        });
        row = new Row(file, columns, problems);
        skipRows = !reader.header(names, problems, file);
        return null;
      }
      if (skipRows || allEmpty(fields)) return null;
      row.fields = fields;
      row.line = line;
      reader.row(row);
      rows++;
      if (rows % PROGRESS_EVERY === 0) o.progress?.(file, rows, false, { read: bytes, total: o.size });
      return null;
    },
  });
  parser.on('skip', (err: CsvError) => {
    const line = startOf(err.record as string[] | undefined, parser.info.empty_lines);
    problems.add(file, line, '', csvProblem(err));
  });

  let refusal: string | undefined;
  input.on('data', (chunk: Buffer) => {
    if (first) {
      first = false;
      if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff)) {
        refusal = 'the file is UTF-16 text: save it as "CSV UTF-8"';
      }
    }
    bytes += chunk.length;
    if (bytes > o.maxBytes) refusal = `file too large: more than ${o.maxBytes} bytes`;
    else if (o.take && !o.take(chunk.length)) refusal = 'the export is too large: its files together are over the limit';
    if (refusal) {
      input.destroy(new Error(refusal));
      return;
    }
    hash.update(chunk);
  });

  try {
    await pipeline(input, parser.on('data', () => undefined));
  } catch (err) {
    if (!refusal) throw err;
  }
  if (refusal) problems.add(file, 0, '', refusal);
  else if (!row) problems.add(file, 0, '', 'the file is empty: a CSV file starts with its header');
  o.progress?.(file, rows, true, { read: bytes, total: o.size });
  return { sha256: hash.digest('hex'), bytes, rows, whole: !refusal && row !== undefined && !skipRows };
}
