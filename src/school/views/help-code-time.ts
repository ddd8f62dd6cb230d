import { wallTimeAt } from '../../formats/zoned-time.js';

/**
 * Until when a help code works, as a teacher reads it on the wall clock of the schools' time zone
 * (`school_day.time_zone`): `16:30 today`, `01:15 tomorrow`, else the day: `Tue 10 Mar, 16:30`.
 */
export function untilText(expiresAt: Date, now: Date, timeZone: string): string {
  const { days, time, date } = untilParts(expiresAt, now, timeZone, 'en-GB');
  if (days === 0) return `${time} today`;
  if (days === 1) return `${time} tomorrow`;
  return `${date}, ${time}`;
}

/** The parts of an end as a `locale` writes them: days from today (0 today, 1 tomorrow), the time (24-hour), and the day. */
export function untilParts(expiresAt: Date, now: Date, timeZone: string, locale: string): { days: number; time: string; date: string } {
  const time = new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(expiresAt);
  const day = (at: Date) => { const w = wallTimeAt(at.getTime(), timeZone); return Date.UTC(w.year, w.month - 1, w.day); };
  const days = Math.round((day(expiresAt) - day(now)) / 86_400_000);
  const date = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short', day: 'numeric', month: 'short' }).format(expiresAt);
  return { days, time, date };
}
