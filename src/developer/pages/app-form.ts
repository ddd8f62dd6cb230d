import { ConflictError, ValidationError } from '../errors.js';

/** What a refused form shows: each field's message, or one message for the whole form; and its status. */
export interface FormFailure {
  status: number;
  fields: Record<string, string>;
  message?: string | undefined;
}

/**
 * A refusal the form shows in place (400 for invalid input, 409 when the app's state does not allow it);
 * undefined for anything else, which the area's error handler answers (404, 403, 503).
 */
export function formFailure(err: unknown): FormFailure | undefined {
  if (err instanceof ValidationError) {
    return { status: 400, fields: Object.fromEntries(err.fields.map((f) => [f.path, f.message])) };
  }
  if (err instanceof ConflictError) return { status: 409, fields: {}, message: err.message };
  return undefined;
}

/** A message for a field, or for the whole form when the field has none. */
export const fieldOrForm = (f: FormFailure, name: string): string | undefined => f.fields[name] ?? f.message ?? Object.values(f.fields)[0];

/** `YYYY-MM-DD` from a date field → the end of that day in UTC; '' → none; anything else is refused. */
export function endOfDay(date: string): { ok: true; iso?: string } | { ok: false; message: string } {
  const d = date.trim();
  if (!d) return { ok: true };
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`))
    && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;
  return valid ? { ok: true, iso: `${d}T23:59:59Z` } : { ok: false, message: 'Choose a date, such as 2026-01-31.' };
}
