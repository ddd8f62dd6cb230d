/**
 * Days as the audit trail counts them: UTC calendar days written YYYY-MM-DD (docs/school-console.md → Audit
 * and usage), the same days the store's usage figures are grouped by.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `text` is a real calendar day (2025-02-30 is not). */
export const isDay = (text: string): boolean => DAY.test(text) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;

/** The UTC day of an instant. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The day `n` days after `day` (before, for a negative n). */
export const addDays = (day: string, n: number): string => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/** The instant a day begins (ISO 8601). */
export const startOf = (day: string): string => `${day}T00:00:00.000Z`;

/** How many days from `from` to `to`, both counted. */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** Every day from `from` to `to`, both included, oldest first. */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
