import t from 'tap';
import { helpCodeExpiry, helpCodeRefusal, HELP_CODE_MAX_HOURS, normaliseHelpCode, offersHelpCodes, spacedHelpCode } from '../../../src/accounts/help-codes.js';
import { openStore } from '../../../adapters/open-store.js';
import { ManualClock } from '../../../src/clock.js';
import { schoolDaySettings } from '../../../src/config/school-day.js';
import { putVisitor } from '../../helpers/class-roster.js';
import { grantRole, putConsoleSchool } from '../../helpers/school-console.js';

const london = schoolDaySettings({ school_day: { ends: '16:30', time_zone: 'Europe/London' } });
const expiry = (issued: string, day = london) => helpCodeExpiry(new Date(issued), day).toISOString();

t.test('a code works until the end of the school day, and at most 8 hours', async (t) => {
  t.equal(HELP_CODE_MAX_HOURS, 8);
  t.equal(expiry('2027-01-12T09:00:00.000Z'), '2027-01-12T16:30:00.000Z', 'issued in the morning: the end of the day (7½ hours)');
  t.equal(expiry('2027-01-12T08:00:00.000Z'), '2027-01-12T16:00:00.000Z', 'issued at 08:00: 8 hours, before the day ends');
  t.equal(expiry('2027-01-12T06:10:00.000Z'), '2027-01-12T14:10:00.000Z', 'issued early: 8 hours');
  t.equal(expiry('2027-01-12T16:29:00.000Z'), '2027-01-12T16:30:00.000Z', 'a minute before the end: a minute');
  t.equal(expiry('2027-01-12T16:30:00.000Z'), '2027-01-13T00:30:00.000Z', 'at the end: after hours, 8 hours');
  t.equal(expiry('2027-01-12T19:45:12.345Z'), '2027-01-13T03:45:12.345Z', 'in the evening: 8 hours');
  t.equal(expiry('2027-01-12T23:59:59.000Z'), '2027-01-13T07:59:59.000Z', 'just before midnight: 8 hours into the next day');
});

t.test('the end of the day is on the school\'s wall clock', async (t) => {
  t.equal(expiry('2027-06-15T09:00:00.000Z'), '2027-06-15T15:30:00.000Z', 'London in summer: 16:30 BST is 15:30 UTC');
  t.equal(expiry('2027-06-15T15:00:00.000Z'), '2027-06-15T15:30:00.000Z');
  t.equal(expiry('2027-06-15T15:45:00.000Z'), '2027-06-15T23:45:00.000Z', 'after 16:30 BST (15:45 UTC is 16:45 there): 8 hours');
  const ny = schoolDaySettings({ school_day: { ends: '15:00', time_zone: 'America/New_York' } });
  t.equal(expiry('2027-03-09T14:00:00.000Z', ny), '2027-03-09T20:00:00.000Z', 'New York 09:00 EST: until 15:00 EST');
  t.equal(expiry('2027-03-09T03:00:00.000Z', ny), '2027-03-09T11:00:00.000Z', '22:00 the evening before in New York (already the 9th in UTC): 8 hours');
  const kolkata = schoolDaySettings({ school_day: { ends: '14:00', time_zone: 'Asia/Kolkata' } });
  t.equal(expiry('2027-03-09T04:30:00.000Z', kolkata), '2027-03-09T08:30:00.000Z', '10:00 in Kolkata: until 14:00 there');
  t.equal(expiry('2027-03-08T20:00:00.000Z', kolkata), '2027-03-09T04:00:00.000Z', '01:30 on the 9th in Kolkata (still the 8th in UTC): 8 hours, before that day ends');
  t.equal(expiry('2027-03-28T09:00:00.000Z'), '2027-03-28T15:30:00.000Z', 'the day the clocks go forward: 16:30 BST');
});

t.test('the default school day ends at 16:30 UTC', async (t) => {
  const d = schoolDaySettings({});
  t.same(d, { endsMinutes: 16 * 60 + 30, timeZone: 'UTC' });
  t.equal(expiry('2027-06-15T10:00:00.000Z', d), '2027-06-15T16:30:00.000Z');
});

t.test('a code is 6 digits, typed with or without spaces or a dash', async (t) => {
  t.equal(normaliseHelpCode('123456'), '123456');
  t.equal(normaliseHelpCode('123 456'), '123456');
  t.equal(normaliseHelpCode(' 123-456 '), '123456');
  t.equal(normaliseHelpCode('012345'), '012345', 'a leading zero is a digit');
  for (const bad of ['12345', '1234567', '12345a', '１２３４５６', '', '123 45', 'x'.repeat(100)]) t.equal(normaliseHelpCode(bad), undefined, `not ${JSON.stringify(bad)}`);
  t.equal(normaliseHelpCode(123456), undefined, 'only text');
  t.equal(normaliseHelpCode(['123456']), undefined);
  t.equal(spacedHelpCode('012345'), '012 345', 'shown in two groups of three');
});

t.test('who may be given a code: pupils only, never staff of any school nor oneself; which schools offer them', async (t) => {
  const store = await openStore('sqlite::memory:', new ManualClock());
  t.teardown(() => store.close());
  const north = await putConsoleSchool(store, 'north');
  const south = await putConsoleSchool(store, 'south');
  const o1 = north.organisation.id;
  const pupil = north.taught.pupils[0]!;
  t.equal(await helpCodeRefusal(store, pupil, o1, north.teacher.user.id), undefined, 'a pupil, by their teacher');
  t.equal(await helpCodeRefusal(store, pupil, south.organisation.id), 'other_school', 'a visitor of another school signs in at their own');
  t.equal(await helpCodeRefusal(store, { ...pupil, suspendedAt: '2027-01-01T00:00:00.000Z' }, o1), 'may_not_sign_in');
  t.equal(await helpCodeRefusal(store, { ...pupil, rosterHold: 'left' }, o1), 'may_not_sign_in');
  t.equal(await helpCodeRefusal(store, north.admin.user, o1, north.teacher.user.id), 'staff', 'an admin (a grant)');
  t.equal(await helpCodeRefusal(store, north.teacher.user, o1, north.admin.user.id), 'staff', 'a teacher the roster enrols');
  const aide = north.other.pupils[0]!;
  await putVisitor(store, south.taught.class, aide, 'aide');
  t.equal(await helpCodeRefusal(store, aide, o1, north.admin.user.id), 'staff', 'an aide of a class at another school');
  const granted = north.other.pupils[1]!;
  await grantRole(store, south.organisation.id, granted.id, 'teacher');
  t.equal(await helpCodeRefusal(store, granted, o1, north.admin.user.id), 'staff', 'a teacher grant at another school');
  t.equal(await helpCodeRefusal(store, north.admin.user, o1, north.admin.user.id), 'oneself');
  t.ok(offersHelpCodes({ slug: 'hillside' }));
  t.notOk(offersHelpCodes({ slug: 'sandbox' }), 'the developer sandbox has no staff to give one');
});
