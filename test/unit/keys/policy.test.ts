import t from 'tap';
import {
  addMonths, certificateWindow, keyStatus, monthOf, monthStart, nextRotation, PREGENERATE_MS, publishedMonths,
  selectPublished, shouldPrepareNext, signingMonth,
} from '../../../src/keys/policy.js';

const at = (iso: string) => new Date(iso);

t.test('monthOf: the UTC month of an instant, at the exact boundaries', async (t) => {
  t.equal(monthOf(at('2027-01-15T12:00:00.000Z')), '2027-01', 'mid-month');
  t.equal(monthOf(at('2027-01-31T23:59:59.999Z')), '2027-01', 'last millisecond of January');
  t.equal(monthOf(at('2027-02-01T00:00:00.000Z')), '2027-02', 'first millisecond of February');
  t.equal(monthOf(at('2026-12-31T23:59:59.999Z')), '2026-12', 'last millisecond of the year');
  t.equal(monthOf(at('2027-01-01T00:00:00.000Z')), '2027-01', 'first millisecond of the next year');
  t.equal(monthOf(at('2028-02-29T23:59:59.999Z')), '2028-02', '29 February in a leap year');
  t.equal(monthOf(at('2028-03-01T00:00:00.000Z')), '2028-03', 'then March');
  t.equal(monthOf(at('2027-02-28T23:59:59.999Z')), '2027-02', '28 February in a common year');
  t.equal(monthOf(at('2027-03-01T00:00:00.000Z')), '2027-03', 'then March');
  // Local time zones play no part: 01:00 on the 1st in UTC+2 is still the previous month in UTC.
  t.equal(monthOf(at('2027-05-01T01:00:00.000+02:00')), '2027-04', 'UTC, not local time');
});

t.test('addMonths: across year boundaries, both ways', async (t) => {
  t.equal(addMonths('2027-01', 1), '2027-02');
  t.equal(addMonths('2026-12', 1), '2027-01', 'December → January of the next year');
  t.equal(addMonths('2027-01', -1), '2026-12', 'January → December of the previous year');
  t.equal(addMonths('2027-11', 2), '2028-01', 'two months over the year end');
  t.equal(addMonths('2027-02', -2), '2026-12', 'two months back over the year end');
  t.equal(addMonths('2027-06', 0), '2027-06', 'zero');
  t.equal(addMonths('2027-06', 12), '2028-06', 'a whole year');
  t.equal(addMonths('2027-06', -18), '2025-12', 'a year and a half back');
  t.throws(() => addMonths('2027-6', 1), TypeError, 'not a YYYY-MM month');
  t.throws(() => addMonths('June 2027', 1), TypeError, 'not a month at all');
});

t.test('monthStart: 00:00:00.000 UTC on the 1st', async (t) => {
  t.equal(monthStart('2027-01').toISOString(), '2027-01-01T00:00:00.000Z');
  t.equal(monthStart('2027-03').toISOString(), '2027-03-01T00:00:00.000Z', 'after a common February');
  t.equal(monthStart('2028-03').toISOString(), '2028-03-01T00:00:00.000Z', 'after a leap February');
  t.equal(monthStart('2026-12').toISOString(), '2026-12-01T00:00:00.000Z');
  t.throws(() => monthStart('2027-1'), TypeError, 'rejects a malformed month');
});

t.test('certificateWindow: 1st of the month 00:00:00 to the last second of the FOLLOWING month', async (t) => {
  const w = (m: string) => {
    const { notBefore, notAfter } = certificateWindow(m);
    return [notBefore.toISOString(), notAfter.toISOString()];
  };
  t.same(w('2027-01'), ['2027-01-01T00:00:00.000Z', '2027-02-28T23:59:59.000Z'], 'January key: to the end of a common February');
  t.same(w('2028-01'), ['2028-01-01T00:00:00.000Z', '2028-02-29T23:59:59.000Z'], 'January key: to the end of a leap February');
  t.same(w('2027-02'), ['2027-02-01T00:00:00.000Z', '2027-03-31T23:59:59.000Z'], 'common February key');
  t.same(w('2028-02'), ['2028-02-01T00:00:00.000Z', '2028-03-31T23:59:59.000Z'], 'leap February key');
  t.same(w('2027-11'), ['2027-11-01T00:00:00.000Z', '2027-12-31T23:59:59.000Z'], 'November key: to the end of the year');
  t.same(w('2027-12'), ['2027-12-01T00:00:00.000Z', '2028-01-31T23:59:59.000Z'], 'December key: into the next year');
  t.same(w('2027-03'), ['2027-03-01T00:00:00.000Z', '2027-04-30T23:59:59.000Z'], 'to a 30-day month');
  // The certificate covers every instant its key can be published (SPEC: current and previous month).
  const { notAfter } = certificateWindow('2027-01');
  t.equal(monthOf(notAfter), addMonths('2027-01', 1), 'ends inside the following month');
  t.equal(notAfter.getTime() + 1000, monthStart('2027-03').getTime(), 'one second before the month after that');
});

t.test('signingMonth and publishedMonths switch at 00:00:00.000 UTC on the 1st', async (t) => {
  const before = at('2027-01-31T23:59:59.999Z');
  const after = at('2027-02-01T00:00:00.000Z');
  t.equal(signingMonth(before), '2027-01', 'January signs until the last millisecond');
  t.equal(signingMonth(after), '2027-02', 'February signs from the first millisecond');
  t.same(publishedMonths(before), ['2027-01', '2026-12'], 'current first, then previous (over the year end)');
  t.same(publishedMonths(after), ['2027-02', '2027-01'], 'after the rotation');
  t.same(publishedMonths(at('2028-03-01T00:00:00.000Z')), ['2028-03', '2028-02'], 'after a leap February');
  t.same(publishedMonths(at('2027-03-01T00:00:00.000Z')), ['2027-03', '2027-02'], 'after a common February');
  t.equal(publishedMonths(at('2027-06-15T00:00:00Z')).length, 2, 'SPEC: at most two');
});

t.test('nextRotation: the next 1st of the month, 00:00:00.000 UTC', async (t) => {
  const next = (iso: string) => nextRotation(at(iso)).toISOString();
  t.equal(next('2027-01-15T12:00:00.000Z'), '2027-02-01T00:00:00.000Z', 'mid-month');
  t.equal(next('2027-01-31T23:59:59.999Z'), '2027-02-01T00:00:00.000Z', 'one millisecond before');
  t.equal(next('2027-02-01T00:00:00.000Z'), '2027-03-01T00:00:00.000Z', 'exactly at a rotation: the following one');
  t.equal(next('2027-12-31T23:59:59.999Z'), '2028-01-01T00:00:00.000Z', 'over the year end');
  t.equal(next('2028-02-29T12:00:00.000Z'), '2028-03-01T00:00:00.000Z', 'leap February');
  t.equal(next('2027-02-28T12:00:00.000Z'), '2027-03-01T00:00:00.000Z', 'common February');
  const instant = at('2027-07-31T23:59:59.999Z');
  t.ok(nextRotation(instant) > instant, 'always in the future');
  t.not(signingMonth(nextRotation(instant)), signingMonth(instant), 'and the signing month changes there');
});

t.test('selectPublished: the active keys of the current and previous month, signing key first', async (t) => {
  const keys = [
    { kid: 'nov', month: '2026-11' },
    { kid: 'dec', month: '2026-12' },
    { kid: 'jan-old', month: '2027-01', revokedAt: '2027-01-10T00:00:00.000Z' },
    { kid: 'jan', month: '2027-01' },
    { kid: 'feb', month: '2027-02' },
  ];
  t.same(selectPublished(keys, at('2027-01-20T00:00:00Z')).map((k) => k.kid), ['jan', 'dec'], 'revoked and older keys out, future key pending');
  t.same(selectPublished(keys, at('2027-01-31T23:59:59.999Z')).map((k) => k.kid), ['jan', 'dec']);
  t.same(selectPublished(keys, at('2027-02-01T00:00:00.000Z')).map((k) => k.kid), ['feb', 'jan'], 'switch at the boundary');
  t.same(selectPublished(keys, at('2027-03-01T00:00:00.000Z')).map((k) => k.kid), ['feb'], 'a missing month publishes what exists');
  t.same(selectPublished([], at('2027-03-01T00:00:00.000Z')), []);
});

t.test('keyStatus: signing, published, pending, retired', async (t) => {
  const keys = [
    { kid: 'dec', month: '2026-12' },
    { kid: 'jan-old', month: '2027-01', revokedAt: '2027-01-10T00:00:00.000Z' },
    { kid: 'jan', month: '2027-01' },
    { kid: 'feb', month: '2027-02' },
    { kid: 'nov', month: '2026-11' },
  ];
  const now = at('2027-01-20T00:00:00Z');
  t.same(Object.fromEntries(keys.map((k) => [k.kid, keyStatus(k, keys, now)])),
    { dec: 'published', 'jan-old': 'retired', jan: 'signing', feb: 'pending', nov: 'retired' });
});

t.test('shouldPrepareNext: only in the last days before the boundary', async (t) => {
  const boundary = at('2027-02-01T00:00:00.000Z').getTime();
  t.notOk(shouldPrepareNext(new Date(boundary - PREGENERATE_MS - 1)), 'not before the window');
  t.ok(shouldPrepareNext(new Date(boundary - PREGENERATE_MS)), 'from the window on');
  t.ok(shouldPrepareNext(new Date(boundary - 1)), 'until the last millisecond');
  t.notOk(shouldPrepareNext(new Date(boundary)), 'a new month starts outside the window');
  t.ok(PREGENERATE_MS >= 24 * 60 * 60 * 1000, 'at least a day ahead');
});
