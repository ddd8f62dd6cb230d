import { LanyardError } from '../errors.js';

/**
 * The developer area's errors. Every one may be shown (expose): they describe what the developer did, never
 * Lanyard's internals. Pages show the message; the JSON API answers `{ error, error_description, fields? }`.
 */

/** One refused field: `path` is the JSON path in the API (`/redirect_uri`) and the form field's name on pages. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** 400 invalid_request: the input was refused, each problem with its field. */
export class ValidationError extends LanyardError {
  constructor(readonly fields: FieldProblem[], message = fields.map((f) => f.message).join('; ')) {
    super('invalid_request', message, 400, true);
    this.name = 'ValidationError';
  }
}

/** 404 not_found: no such app — or one the developer is not in the team of (never say which). */
export class NotFoundError extends LanyardError {
  /** The app itself is not there for this developer (no message given), rather than something in it. */
  readonly noSuchApp: boolean;

  constructor(message?: string) {
    super('not_found', message ?? 'no such app', 404, true);
    this.name = 'NotFoundError';
    this.noSuchApp = message === undefined;
  }
}

/** 403 forbidden: the developer may see this but not do that (a team member removing the owner). */
export class ForbiddenError extends LanyardError {
  constructor(message: string) {
    super('forbidden', message, 403, true);
    this.name = 'ForbiddenError';
  }
}

/** 409 conflict: the action does not fit the current state (going live twice, an email already registered). */
export class ConflictError extends LanyardError {
  constructor(message: string) {
    super('conflict', message, 409, true);
    this.name = 'ConflictError';
  }
}

/** 401: not signed in (pages redirect to the sign-in page; the API answers with WWW-Authenticate). */
export class UnauthenticatedError extends LanyardError {
  constructor(message = 'sign in first') {
    super('unauthenticated', message, 401, true);
    this.name = 'UnauthenticatedError';
  }
}
