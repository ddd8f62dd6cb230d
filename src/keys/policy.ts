/**
 * SPEC: Limits → Signing-key policy, as pure functions of time.
 * - a new key signs from the 1st of each month, 00:00:00 UTC;
 * - the key set publishes at most two certificates: the current month's and the previous month's;
 * - each certificate is valid two months, ending at the end of the following month.
 */

/** A month as `YYYY-MM` (UTC). */
export type Month = string;

export function monthOf(instant: Date): Month {
  return `${instant.getUTCFullYear()}-${String(instant.getUTCMonth() + 1).padStart(2, '0')}`;
}

function parse(month: Month): [number, number] {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) throw new TypeError(`not a month: ${month}`);
  return [Number(m[1]), Number(m[2]) - 1];
}

export function addMonths(month: Month, delta: number): Month {
  const [y, m] = parse(month);
  return monthOf(new Date(Date.UTC(y, m + delta, 1)));
}

/** 00:00:00.000 UTC on the 1st of the month. */
export function monthStart(month: Month): Date {
  const [y, m] = parse(month);
  return new Date(Date.UTC(y, m, 1));
}

/** Certificate validity of the key that signs during `month`: its 1st 00:00:00 to the last second of the next month. */
export function certificateWindow(month: Month): { notBefore: Date; notAfter: Date } {
  return { notBefore: monthStart(month), notAfter: new Date(monthStart(addMonths(month, 2)).getTime() - 1000) };
}

/** The month whose key signs at `instant`. */
export const signingMonth = (instant: Date): Month => monthOf(instant);

/** Months whose keys are published at `instant`: current first, then previous. */
export const publishedMonths = (instant: Date): [Month, Month] => {
  const current = monthOf(instant);
  return [current, addMonths(current, -1)];
};

/** The next instant at which the signing key changes. */
export const nextRotation = (instant: Date): Date => monthStart(addMonths(monthOf(instant), 1));

/** Next month's key is generated this long before its month starts (never on a request path). */
export const PREGENERATE_MS = 3 * 24 * 60 * 60 * 1000;

/** Is it time to have the next month's key ready? */
export const shouldPrepareNext = (instant: Date): boolean =>
  nextRotation(instant).getTime() - instant.getTime() <= PREGENERATE_MS;

export type KeyStatus = 'signing' | 'published' | 'pending' | 'retired';

interface PolicyKey { kid: string; month: Month; revokedAt?: string | undefined }

/** The month's active key: the one not revoked (a month has at most one; the store enforces it). */
const activeFor = <K extends PolicyKey>(keys: K[], month: Month) => keys.find((k) => k.month === month && !k.revokedAt);

/** The keys published at `instant`, current month's first (it signs); at most two. */
export function selectPublished<K extends PolicyKey>(keys: K[], instant: Date): K[] {
  return publishedMonths(instant).map((m) => activeFor(keys, m)).filter((k): k is K => k !== undefined);
}

export function keyStatus<K extends PolicyKey>(key: K, keys: K[], instant: Date): KeyStatus {
  const [current, previous] = publishedMonths(instant);
  if (key.revokedAt) return 'retired';
  if (key.month === current && activeFor(keys, current) === key) return 'signing';
  if (key.month === previous) return 'published';
  return key.month > current ? 'pending' : 'retired';
}
