/**
 * CSV as spreadsheets read it (RFC 4180: comma-separated, CRLF line ends, a field quoted when it holds a comma,
 * a quote or a line break, quotes doubled), made safe to open: a cell that starts with `=`, `+`, `-`, `@`, a tab
 * or a carriage return would be run as a formula by Excel, LibreOffice and Google Sheets (CSV injection), so it
 * gets a leading `'`, which they show as text (OWASP, CSV Injection).
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvCell(value: string | number | undefined | null): string {
  let text = value === undefined || value === null ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly (string | number | undefined | null)[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** Marks the file as UTF-8 for spreadsheets that would otherwise guess another encoding (names with accents). */
export const UTF8_BOM = '\uFEFF';
