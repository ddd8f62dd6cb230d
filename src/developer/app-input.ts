import type { StoredClient } from '../../adapters/store.js';
import { emailProblem, normaliseEmail, unseenInEmail } from '../formats/email-address.js';
import { checkUrl, type UrlKind } from '../clients/callback-url.js';
import { type FieldProblem, ValidationError } from './errors.js';
import { reordersText } from '../formats/unseen-characters.js';

/** Limits of what a developer may enter: generous for people, small enough that no field is a storage dump. */
export const APP_LIMITS = {
  nameLength: 80,
  descriptionLength: 1000,
  secretLabelLength: 60,
  /** Callback URLs per app: enough for every environment of an app, few enough to review. */
  callbacks: 20,
  /** Secrets per app (active or expired): rotation needs two or three; every token request compares them all. */
  secrets: 10,
  teamSize: 50,
  /** Apps one developer may own: a leaked or abusive account cannot fill the store. */
  appsPerOwner: 50,
  reviewNoteLength: 1000,
} as const;

/** Details as stored: `undefined` leaves a field as it is; '' (or a missing optional) clears it. */
export type DetailsChange = Partial<Pick<StoredClient, 'name' | 'description' | 'homepageUrl' | 'logoUrl'>>;

/** One line of text: no control characters (a name is shown in headings, lists and logs). */
const oneLine = (s: string) => !/\p{Cc}/u.test(s);

/**
 * Checks an app's details (name, description, homepage, logo), every field at once so a form shows every
 * problem together. Field paths are the API's and the forms' names: `name`, `description`, `homepage_url`,
 * `logo_url`.
 */
export function checkDetails(input: { name?: string | undefined; description?: string | undefined; homepageUrl?: string | undefined; logoUrl?: string | undefined }, requireName: boolean): DetailsChange {
  const problems: FieldProblem[] = [];
  const out: DetailsChange = {};
  if (input.name !== undefined || requireName) {
    const name = (input.name ?? '').trim();
    if (!name) problems.push({ path: 'name', message: 'Give the app a name: people see it when they sign in.' });
    else if (name.length > APP_LIMITS.nameLength) problems.push({ path: 'name', message: `The name can be at most ${APP_LIMITS.nameLength} characters long.` });
    else if (!oneLine(name)) problems.push({ path: 'name', message: 'The name must be one line of text.' });
    else if (reordersText(name)) problems.push({ path: 'name', message: 'The name cannot contain characters that change the direction of text.' });
    else out.name = name;
  }
  if (input.description !== undefined) {
    const description = input.description.trim().replace(/\r\n/g, '\n');
    if (description.length > APP_LIMITS.descriptionLength) {
      problems.push({ path: 'description', message: `The description can be at most ${APP_LIMITS.descriptionLength} characters long.` });
    } else if (/[\p{Cc}]/u.test(description.replace(/[\n\t]/g, ''))) {
      problems.push({ path: 'description', message: 'The description cannot contain control characters.' });
    } else if (reordersText(description)) {
      problems.push({ path: 'description', message: 'The description cannot contain characters that change the direction of text.' });
    } else {
      out.description = description || undefined;
    }
  }
  const url = (value: string | undefined, kind: UrlKind, path: string, key: 'homepageUrl' | 'logoUrl') => {
    if (value === undefined) return;
    if (value.trim() === '') {
      out[key] = undefined;
      return;
    }
    const checked = checkUrl(value, kind);
    if (checked.ok) out[key] = checked.url;
    else problems.push({ path, message: checked.message });
  };
  url(input.homepageUrl, 'homepage', 'homepage_url', 'homepageUrl');
  url(input.logoUrl, 'logo', 'logo_url', 'logoUrl');
  if (problems.length) throw new ValidationError(problems);
  return out;
}

/** A secret's label: required, one short line. */
export function checkSecretLabel(input: string | undefined): string {
  const label = (input ?? '').trim();
  if (!label) throw new ValidationError([{ path: 'label', message: 'Give the secret a label (say where it is used, such as “Production server”), so you know which one to revoke later.' }]);
  if (label.length > APP_LIMITS.secretLabelLength) throw new ValidationError([{ path: 'label', message: `The label can be at most ${APP_LIMITS.secretLabelLength} characters long.` }]);
  if (!oneLine(label)) throw new ValidationError([{ path: 'label', message: 'The label must be one line of text.' }]);
  return label;
}

/** An ISO 8601 instant with a time zone (`2026-01-31T23:59:59Z`), strictly: a typo must not become a date. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A secret's optional expiry: an instant in the future, kept in UTC; undefined or '' for none. */
export function checkExpiry(input: string | undefined, now: Date): string | undefined {
  if (input === undefined || input.trim() === '') return undefined;
  const value = input.trim();
  const at = INSTANT.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(at)) {
    throw new ValidationError([{ path: 'expires_at', message: 'The expiry must be a date and time with a time zone, such as 2026-01-31T23:59:59Z.' }]);
  }
  if (at <= now.getTime()) throw new ValidationError([{ path: 'expires_at', message: 'The expiry must be in the future.' }]);
  return new Date(at).toISOString();
}

/** A developer's email address as typed, normalised and checked as accounts' addresses are. */
export function checkEmail(input: string | undefined): string {
  const unseen = unseenInEmail(input ?? '');
  if (unseen) throw new ValidationError([{ path: 'email', message: unseen }]);
  if (emailProblem(input ?? '')) {
    throw new ValidationError([{ path: 'email', message: 'Enter the email address of their developer account, such as ada@example.com.' }]);
  }
  return normaliseEmail(input ?? '');
}
