import t from 'tap';
import { instantOf, isTimeZone, wallTimeAt } from '../../../src/formats/zoned-time.js';

const iso = (ms: number) => new Date(ms).toISOString();
const at = (s: string) => new Date(s).getTime();

t.test('time zones are IANA names the platform knows', async (t) => {
  for (const zone of ['UTC', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'Australia/Adelaide']) t.ok(isTimeZone(zone), zone);
  for (const zone of ['Mars/Olympus', 'Europe/Londn', '', '+25:00']) t.notOk(isTimeZone(zone), `not ${JSON.stringify(zone)}`);
});

t.test('the wall clock at a moment: date and minutes after midnight', async (t) => {
  t.same(wallTimeAt(at('2027-03-10T09:15:30.500Z'), 'UTC'), { year: 2027, month: 3, day: 10, minutes: 9 * 60 + 15 });
  t.same(wallTimeAt(at('2027-03-10T23:30:00Z'), 'Asia/Kolkata'), { year: 2027, month: 3, day: 11, minutes: 5 * 60 }, 'India: +05:30, the next day');
  t.same(wallTimeAt(at('2027-03-10T03:00:00Z'), 'America/New_York'), { year: 2027, month: 3, day: 9, minutes: 22 * 60 }, 'New York: −05:00, the day before');
  t.same(wallTimeAt(at('2027-07-01T15:30:00Z'), 'Europe/London'), { year: 2027, month: 7, day: 1, minutes: 16 * 60 + 30 }, 'summer time');
});

t.test('the moment a wall-clock time happens', async (t) => {
  t.equal(iso(instantOf({ year: 2027, month: 3, day: 10, minutes: 16 * 60 + 30 }, 'UTC')), '2027-03-10T16:30:00.000Z');
  t.equal(iso(instantOf({ year: 2027, month: 1, day: 15, minutes: 16 * 60 + 30 }, 'Europe/London')), '2027-01-15T16:30:00.000Z', 'winter: GMT');
  t.equal(iso(instantOf({ year: 2027, month: 6, day: 15, minutes: 16 * 60 + 30 }, 'Europe/London')), '2027-06-15T15:30:00.000Z', 'summer: BST');
  t.equal(iso(instantOf({ year: 2027, month: 6, day: 15, minutes: 15 * 60 }, 'America/New_York')), '2027-06-15T19:00:00.000Z', 'EDT');
  t.equal(iso(instantOf({ year: 2027, month: 6, day: 15, minutes: 15 * 60 }, 'Asia/Kolkata')), '2027-06-15T09:30:00.000Z', 'half-hour offset');
  t.equal(iso(instantOf({ year: 2027, month: 6, day: 15, minutes: 15 * 60 }, 'Pacific/Auckland')), '2027-06-15T03:00:00.000Z', 'ahead of UTC by 12 hours');
});

t.test('around the changes of summer time', async (t) => {
  // Europe/London: 2027-03-28 01:00 GMT the clocks go to 02:00 BST; 2027-10-31 02:00 BST they go back to 01:00 GMT.
  t.equal(iso(instantOf({ year: 2027, month: 3, day: 28, minutes: 16 * 60 + 30 }, 'Europe/London')), '2027-03-28T15:30:00.000Z', 'the afternoon of the change: BST');
  t.equal(iso(instantOf({ year: 2027, month: 3, day: 28, minutes: 90 }, 'Europe/London')), '2027-03-28T01:30:00.000Z', 'a skipped time: read with the offset before');
  t.equal(iso(instantOf({ year: 2027, month: 10, day: 31, minutes: 90 }, 'Europe/London')), '2027-10-31T00:30:00.000Z', 'a time that happens twice: the first');
  t.equal(iso(instantOf({ year: 2027, month: 10, day: 31, minutes: 16 * 60 + 30 }, 'Europe/London')), '2027-10-31T16:30:00.000Z', 'the afternoon after going back: GMT');
  for (const ms of [at('2027-03-28T00:59:00Z'), at('2027-03-28T01:00:00Z'), at('2027-10-31T00:30:00Z'), at('2027-10-31T01:30:00Z'), at('2027-11-07T06:30:00Z')]) {
    for (const zone of ['Europe/London', 'America/New_York']) {
      const w = wallTimeAt(ms, zone);
      t.equal(wallTimeAt(instantOf(w, zone), zone).minutes, w.minutes, `${zone} ${iso(ms)}: there and back`);
    }
  }
});
