import t from 'tap';
import { classLinkUntil, isClassLinkLength } from '../../../src/accounts/class-link-length.js';

const LONDON = { endsMinutes: 15 * 60 + 30, timeZone: 'Europe/London' };

t.test('a class link lasts an hour, two, or until the end of the school day (tomorrow\'s once today\'s has passed)', async (t) => {
  const morning = new Date('2027-06-10T08:00:00.000Z'); // 09:00 in London (summer time)
  t.equal(classLinkUntil('hour', morning, LONDON).toISOString(), '2027-06-10T09:00:00.000Z');
  t.equal(classLinkUntil('two_hours', morning, LONDON).toISOString(), '2027-06-10T10:00:00.000Z');
  t.equal(classLinkUntil('school_day', morning, LONDON).toISOString(), '2027-06-10T14:30:00.000Z', "15:30 on London's clock");
  const evening = new Date('2027-06-10T17:00:00.000Z');
  t.equal(classLinkUntil('school_day', evening, LONDON).toISOString(), '2027-06-11T14:30:00.000Z', "after today's end: tomorrow's");
  const atTheEnd = new Date('2027-06-10T14:30:00.000Z');
  t.equal(classLinkUntil('school_day', atTheEnd, LONDON).toISOString(), '2027-06-11T14:30:00.000Z', 'at the end itself: tomorrow\'s');
  t.ok(isClassLinkLength('school_day'));
  for (const other of ['day', '', undefined, 3, 'HOUR']) t.notOk(isClassLinkLength(other), JSON.stringify(other));
});
