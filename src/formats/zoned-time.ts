/**
 * Wall-clock time in an IANA time zone, with nothing but the platform's Intl (Node's full ICU): the date a
 * moment falls on there, and the moment a wall-clock time of a day is there. Used for the end of the school day
 * (docs/childrens-sign-in.md → Help codes).
 */

/** A calendar day and a time of day (minutes after midnight) on a wall clock. */
export interface WallTime {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  /** Minutes after midnight, 0–1439. */
  minutes: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** Whether the platform knows the name as a time zone (`Europe/London`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    formatIn(name);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock in `timeZone` at `instant` (epoch ms), to the second. */
function wallClock(instant: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts: Record<string, number> = {};
  for (const p of formatIn(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const whole = instant - (((instant % 1000) + 1000) % 1000);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - whole;
}

/** The day and time on `timeZone`'s wall clock at `instant` (epoch ms). */
export function wallTimeAt(instant: number, timeZone: string): WallTime {
  const w = wallClock(instant, timeZone);
  return { year: w.year, month: w.month, day: w.day, minutes: w.hour * 60 + w.minute };
}

/**
 * The moment (epoch ms) `timeZone`'s wall clock shows `at`. Around a change of offset (summer time) a wall
 * time that happens twice is its first, and one that never happens (skipped forward) is read with the offset
 * before the change (it lands as many minutes after the change as it was after the skipped hour's start).
 */
export function instantOf(at: WallTime, timeZone: string): number {
  const wall = Date.UTC(at.year, at.month - 1, at.day, 0, at.minutes);
  // Read with the offset of the day before and of the day after (a zone changes its offset at most once in two days).
  const before = wall - offsetAt(wall - DAY_MS, timeZone);
  const after = wall - offsetAt(wall + DAY_MS, timeZone);
  const confirmed = [before, after].filter((t) => t + offsetAt(t, timeZone) === wall);
  return confirmed.length ? Math.min(...confirmed) : before;
}
