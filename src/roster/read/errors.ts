import { LanyardError } from '../../errors.js';

/**
 * What is given cannot be read as a roster at all (no such path, not a roster format, a one-file CSV
 * without the organisation it is for). A problem inside an export's files is never this: it is a
 * `SourceError` in the `RosterSource` read.
 */
export class RosterReadError extends LanyardError {
  constructor(message: string, code = 'roster_unreadable') {
    super(code, message, 400, true);
    this.name = 'RosterReadError';
  }
}
