/** Reading a school's roster files (OneRoster 1.1 / 1.2 CSV, the one-file CSV) into a RosterSource. */
export { readRoster, type ReadRosterOptions } from './read-roster.js';
export { RosterReadError } from './errors.js';
export { READ_LIMITS, type ReadLimits } from './limits.js';
