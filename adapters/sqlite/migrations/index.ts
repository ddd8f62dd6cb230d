import { INITIAL } from './001-initial.js';
import { CLIENTS_AND_LOCKS } from './002-clients-and-locks.js';
import { ACCOUNT_SESSIONS } from './003-account-sessions.js';
import { DEVELOPER_AREA } from './004-developer-area.js';
import { CONNECTIONS } from './005-connections.js';
import { PARTIAL_INDEXES } from './006-partial-indexes.js';
import { CLIENT_LOGOS } from './007-client-logos.js';
import { RUNNING_REVISIONS } from './008-running-revisions.js';
import { EMAIL_VERIFIED } from './009-email-verified.js';
import { ROSTER } from './010-roster.js';
import { SCHOOL_CONSOLE } from './011-school-console.js';
import { AUDIT } from './012-audit.js';
import { CLASS_LINKS } from './013-class-links.js';

/** The SQLite schema's versions, in order: migration N brings a database from version N-1 to N. */
export const MIGRATIONS: readonly string[] = [INITIAL, CLIENTS_AND_LOCKS, ACCOUNT_SESSIONS, DEVELOPER_AREA, CONNECTIONS, PARTIAL_INDEXES, CLIENT_LOGOS, RUNNING_REVISIONS, EMAIL_VERIFIED, ROSTER,
  SCHOOL_CONSOLE, AUDIT, CLASS_LINKS];
