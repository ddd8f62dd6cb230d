/**
 * The lines of a plain-text table for the `lanyard` command's listings: columns as wide as their widest
 * cell, two spaces apart, left-aligned unless `rightAligned` says so (numbers), no trailing spaces.
 */
export function tableLines(rows: string[][], rightAligned: (column: number) => boolean = () => false): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (rightAligned(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}
