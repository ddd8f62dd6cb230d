import type { SourceMode } from '../source.js';
import type { Row, TableReader } from './csv-table.js';
import type { Problems } from './problems.js';
import type { ReadContext, RecordBase } from './read-context.js';
import { spelled } from './oneroster-vocabulary.js';
import { vocabulary as vocabularyWord } from './values.js';

/** How one kind of OneRoster file becomes records. */
export interface KindSpec<R extends RecordBase> {
  /** Columns the header must have and an active row must fill. */
  required: readonly string[];
  /** The record from a row (its common fields read already); undefined to keep nothing of the row. */
  build(row: Row, base: RecordBase, ctx: ReadContext): R | undefined;
}

/** `status`: empty (or active) in a bulk file; active or tobedeleted in a delta file. */
function statusOf(row: Row, mode: SourceMode): RecordBase['status'] | undefined {
  const text = row.get('status');
  const lower = text?.toLowerCase();
  if (mode === 'delta') {
    if (lower === 'active' || lower === 'tobedeleted') return lower;
    row.problem('status', text === undefined ? 'empty: a delta file says active or tobedeleted for every row' : 'must be active or tobedeleted', text);
    return undefined;
  }
  if (lower === undefined || lower === 'active') return 'active';
  row.problem('status', lower === 'tobedeleted'
    ? 'tobedeleted in a bulk file: a bulk file lists what exists; leave the row out (or send a delta file)'
    : 'must be active (or empty) in a bulk file', text);
  return undefined;
}

/**
 * The reader of one kind's file: checks the header, then each row's common fields (sourcedId, unique in
 * the file; status; dateLastModified) and required columns, and collects the records in `out` and `byId`.
 * A row with a problem is still kept when it has a sourcedId, so that rows referring to it are not
 * reported as well (nothing is applied while there is a problem).
 */
export function kindReader<R extends RecordBase>(
  spec: KindSpec<R>, mode: 'bulk' | 'delta', ctx: ReadContext, out: R[], byId: Map<string, R>,
): TableReader {
  return {
    header(names: string[], problems: Problems, file: string): boolean {
      const needed = mode === 'delta' ? ['sourcedId', ...spec.required, 'status'] : ['sourcedId', ...spec.required];
      const missing = [...new Set(needed)].filter((c) => !names.includes(c));
      for (const column of missing) problems.add(file, 1, column, `the header has no column ${column} (${file} needs ${[...new Set(needed)].join(', ')})`);
      return missing.length === 0;
    },
    row(row: Row): void {
      const sourcedId = row.get('sourcedId');
      if (sourcedId === undefined) {
        row.problem('sourcedId', 'empty: every row needs its sourcedId');
        return;
      }
      const first = byId.get(sourcedId);
      if (first) {
        row.problem('sourcedId', `the same sourcedId is on line ${first.at.line}`, sourcedId);
        return;
      }
      const status = statusOf(row, mode) ?? 'active';
      const base: RecordBase = { sourcedId, status, modifiedAt: ctx.modifiedAt(row), at: { file: row.file, line: row.line } };
      if (status === 'active') {
        for (const column of spec.required) if (row.get(column) === undefined) row.problem(column, 'empty: this column is required');
      }
      const record = spec.build(row, base, ctx);
      if (!record) return;
      out.push(record);
      byId.set(sourcedId, record);
    },
  };
}

/** A YYYY-MM-DD column (begin and end dates): the date, or undefined (a problem when it is not one). */
export function dateOf(row: Row, column: string, ctx: ReadContext): string | undefined {
  const text = row.get(column);
  if (text === undefined) return undefined;
  if (ctx.isDate(text)) return ctx.intern.of(text);
  row.problem(column, 'not a date (YYYY-MM-DD)', text);
  return undefined;
}

/** A vocabulary column: its spelling in the vocabulary, or the text as given after a problem. */
export function termOf(row: Row, column: string, vocabulary: ReadonlyMap<string, string>, what: string): string | undefined {
  const text = row.get(column);
  if (text === undefined) return undefined;
  const word = vocabularyWord(text, vocabulary);
  if (word !== undefined) return word;
  row.problem(column, `not ${what}: one of ${spelled(vocabulary)} (or ext:…)`, text);
  return text;
}
