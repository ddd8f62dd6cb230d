import { LanyardError } from '../errors.js';

/**
 * The school console's errors. Each may be shown (expose): they say what the member of staff asked for, never
 * Lanyard's internals. Pages show the message inside the console's frame; /school/api answers
 * `{ error, error_description }`.
 */

/**
 * 404 not_found: no such school, class or person — or one this member of staff may not see. The console never
 * says which: an admin of one school learns nothing of another (docs/school-console.md → Who may do what).
 */
export class NotInSchoolError extends LanyardError {
  constructor(message = 'There is nothing at this address for you.') {
    super('not_found', message, 404, true);
    this.name = 'NotInSchoolError';
  }
}

/** 400 invalid_request: the form or request was refused, with what to change. */
export class SchoolInputError extends LanyardError {
  constructor(message: string, readonly fields: { path: string; message: string }[] = []) {
    super('invalid_request', message, 400, true);
    this.name = 'SchoolInputError';
  }
}

/** 403 forbidden: a forged or stale form (CSRF), or an action that needs a fresh second step. */
export class SchoolForbiddenError extends LanyardError {
  constructor(message: string) {
    super('forbidden', message, 403, true);
    this.name = 'SchoolForbiddenError';
  }
}
