import type { SchoolDaySettings } from '../config/school-day.js';
import { instantOf, wallTimeAt } from '../formats/zoned-time.js';

/** The longest a help code works, whenever it is issued. */
export const HELP_CODE_MAX_HOURS = 8;

/**
 * Until when a help code issued at `now` works (docs/childrens-sign-in.md → Help codes): the end of that school
 * day (`school_day.ends` on the wall clock of `school_day.time_zone`), and never more than 8 hours; a code issued
 * once that day's end has passed (an evening, a weekend) works for 8 hours.
 */
export function helpCodeExpiry(now: Date, day: SchoolDaySettings): Date {
  const at = now.getTime();
  const longest = at + HELP_CODE_MAX_HOURS * 60 * 60 * 1000;
  const end = instantOf({ ...wallTimeAt(at, day.timeZone), minutes: day.endsMinutes }, day.timeZone);
  return new Date(end > at ? Math.min(end, longest) : longest);
}
