import type { AuditEvent, AuditKind } from '../../../adapters/store.js';

/**
 * How the console says what an audit event records (docs/school-console.md → Audit and usage): in words for
 * the page, with the stable codes kept in the CSV and the API. A code without words here is shown as it is,
 * its dots and underscores as spaces.
 */

export const KIND_WORDS: Record<AuditKind, string> = {
  sign_in: 'Sign-in',
  sign_in_failed: 'Failed sign-in',
  launch: 'App opened',
  credential: 'Credential change',
  import: 'Roster import',
  console: 'Console action',
};

const METHOD_WORDS: Record<string, string> = {
  password: 'password', emoji: 'emoji password', badge: 'badge', help_code: 'help code', totp: 'two-step code', recovery_code: 'recovery code',
};

const DEVICE_WORDS: Record<string, string> = { classroom: 'classroom device', known: 'their own device', other: 'another device' };

const RESULT_WORDS: Record<string, string> = {
  success: 'succeeded', wrong_credential: 'wrong credential', locked: 'locked', suspended: 'suspended', throttled: 'too many tries',
  unknown_user: 'no such user', expired: 'expired', used: 'already used',
};

const asWords = (code: string): string => code.replace(/[._]+/g, ' ');

export const kindWords = (kind: string): string => KIND_WORDS[kind as AuditKind] ?? asWords(kind);
export const methodWords = (method: string | undefined): string | undefined => (method === undefined ? undefined : METHOD_WORDS[method] ?? asWords(method));
export const deviceWords = (device: string | undefined): string | undefined => (device === undefined ? undefined : DEVICE_WORDS[device] ?? asWords(device));
export const resultWords = (result: string | undefined): string | undefined => (result === undefined ? undefined : RESULT_WORDS[result] ?? asWords(result));

/** The action in words (`emoji.reset` → “emoji reset”); a sign-in or launch says nothing more than its kind. */
export const actionWords = (e: Pick<AuditEvent, 'kind' | 'action'>): string | undefined =>
  (e.action === e.kind || (e.kind === 'sign_in_failed' && e.action === 'sign_in') ? undefined : asWords(e.action));

/** An event's details as one line (`field: old → new`-style pairs as recorded): `k=v; k=v`. */
export const detailLine = (detail: Record<string, string> | undefined): string =>
  Object.entries(detail ?? {}).map(([k, v]) => `${k}=${v}`).join('; ');
