import { isTimeZone } from '../formats/zoned-time.js';
import { SCHOOL_DAY_DEFAULTS } from './defaults.js';
import type { ConfigFile } from './schema.js';

/** The file's `school_day` with its defaults applied (docs/configuration.md, docs/childrens-sign-in.md → Help codes). */
export interface SchoolDaySettings {
  /** The end of the school day: minutes after midnight on the wall clock of `timeZone`. */
  endsMinutes: number;
  /** An IANA time zone name. */
  timeZone: string;
}

/** `HH:MM` as minutes after midnight (the schema has checked its shape). */
const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function schoolDaySettings(file: Pick<ConfigFile, 'school_day'> = {}): SchoolDaySettings {
  const d = file.school_day ?? {};
  return { endsMinutes: minutesOf(d.ends ?? SCHOOL_DAY_DEFAULTS.ends), timeZone: d.time_zone ?? SCHOOL_DAY_DEFAULTS.time_zone };
}

/** What the schema cannot say about `school_day`: a time zone the platform does not know. */
export function schoolDayProblems(file: Pick<ConfigFile, 'school_day'>): string[] {
  const zone = file.school_day?.time_zone;
  return zone !== undefined && !isTimeZone(zone)
    ? [`/school_day/time_zone: "${zone}" is not a time zone; give an IANA name such as Europe/London or America/New_York`]
    : [];
}
