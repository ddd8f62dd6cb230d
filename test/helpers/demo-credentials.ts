import type { Lanyard } from './lanyard.js';
import { DEMO_BASIC_AUTH, DEMO_CLIENT } from './relying-party.js';
import { TEACHER } from './sign-in.js';

/**
 * Every credential a demo sign-in (with a wrong password first) and its token requests handle, by name:
 * none of them may appear in a log line or a metric.
 */
export const demoCredentials = (lanyard: Lanyard, wrongPassword: string) => new Map<string, string>([
  ['the password', TEACHER.password],
  ['the wrong password', wrongPassword],
  ['the client secret', DEMO_CLIENT.secret],
  ['the Basic credentials', DEMO_BASIC_AUTH.slice('Basic '.length)],
  ['the internal client secret', lanyard.app.lanyard.clients.internalSecret(DEMO_CLIENT.id)],
]);
