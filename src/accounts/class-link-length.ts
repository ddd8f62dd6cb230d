import type { SchoolDaySettings } from '../config/school-day.js';
import { instantOf, wallTimeAt } from '../formats/zoned-time.js';

/**
 * How long a teacher makes a class link last (docs/school-console.md → Class links): an hour, two (a lesson or
 * two), or until the end of the school day (`school_day.ends` on the wall clock of `school_day.time_zone`; made
 * after today's end, tomorrow's). The service caps every link at a day.
 */
export const CLASS_LINK_LENGTHS = ['hour', 'two_hours', 'school_day'] as const;
export type ClassLinkLength = (typeof CLASS_LINK_LENGTHS)[number];

export const isClassLinkLength = (v: unknown): v is ClassLinkLength => CLASS_LINK_LENGTHS.includes(v as ClassLinkLength);

const HOUR_MS = 3_600_000;

export function classLinkUntil(length: ClassLinkLength, now: Date, day: SchoolDaySettings): Date {
  const at = now.getTime();
  if (length === 'hour') return new Date(at + HOUR_MS);
  if (length === 'two_hours') return new Date(at + 2 * HOUR_MS);
  const endOn = (instant: number) => instantOf({ ...wallTimeAt(instant, day.timeZone), minutes: day.endsMinutes }, day.timeZone);
  const today = endOn(at);
  return new Date(today > at ? today : endOn(at + 24 * HOUR_MS));
}
