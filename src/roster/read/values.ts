/**
 * The values OneRoster's CSV binding writes, read strictly enough to catch a column shifted by one or a
 * spreadsheet's reformatting (a date turned into 03/09/2024), loosely enough for real exports (case in
 * booleans and vocabularies, an empty optional column).
 */

/** `true` / `false` in any case; undefined for anything else. */
export function parseBoolean(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return undefined;
}

/**
 * A list inside one field ("s1,s2", quoted in the file): trimmed, empties dropped, each item through
 * `keep` (an Interner's `of`, for values many rows repeat). The array is made at its size (a roster keeps
 * hundreds of thousands of them).
 */
export function parseList(text: string | undefined, separators: RegExp = /,/, keep: (item: string) => string = (s) => s): string[] {
  if (text === undefined) return [];
  const items = text.split(separators);
  let n = 0;
  for (const item of items) {
    const trimmed = item.trim();
    if (trimmed !== '') items[n++] = keep(trimmed);
  }
  return n === items.length ? items : items.slice(0, n);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A calendar date, YYYY-MM-DD, that exists. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * An ISO 8601 date-time (`dateLastModified`: 2024-08-30T14:03:00.000Z, with or without the zone or the
 * time; no zone is read as UTC), returned as the ISO string of the instant; undefined when it is not one.
 */
export function isoDateTime(text: string): string | undefined {
  if (!DATE_TIME.test(text) || !isDate(text.slice(0, 10))) return undefined;
  const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/.test(text) || text.length === 10 ? text : `${text}Z`;
  const time = Date.parse(zoned.replace(' ', 'T'));
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/**
 * One value of a vocabulary, matched without regard to case and returned as the vocabulary spells it, or an
 * extension (`ext:…`, which OneRoster allows) as given; undefined when it is neither.
 */
export function vocabulary(text: string, words: ReadonlyMap<string, string>): string | undefined {
  if (/^ext:\S/i.test(text)) return text;
  return words.get(text.toLowerCase());
}

/** A vocabulary for `vocabulary()`: lower case → the spelling. */
export const words = (...spellings: string[]): ReadonlyMap<string, string> => new Map(spellings.map((w) => [w.toLowerCase(), w]));

/**
 * The same string for equal values while one file is read: thousands of enrolments name the same class,
 * school, role and dates, and each distinct text is then kept once in memory.
 */
export class Interner {
  private readonly seen = new Map<string, string>();

  constructor(private readonly max = 100_000) {}

  of(text: string): string;
  of(text: string | undefined): string | undefined;
  of(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    const known = this.seen.get(text);
    if (known !== undefined) return known;
    if (this.seen.size >= this.max) this.seen.clear();
    this.seen.set(text, text);
    return text;
  }
}
