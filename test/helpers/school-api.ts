import type { AuditEvent } from '../../adapters/store.js';
import { FAILURE_CAP } from './class-console.js';
import { writeConfig } from './config-file.js';
import { useDemoApp } from './help-codes.js';
import type { Lanyard } from './lanyard.js';
import { auditEvents, type ConsoleSchool, putConsoleSchool, type Staff } from './school-console.js';
import { putSecondFactor, putStaffToken } from './staff-tokens.js';

/**
 * The school API in tests (docs/school-console.md → The school API): calls with a staff API token, a school
 * (`north`) with an admin's and a teacher's tokens and another school's admin's (`south`), and the audit events
 * an API change records.
 */

export const SCHOOLS_API = '/school/api/schools';

/** An answer: its status and its JSON body (undefined when empty). */
export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** Calls `/school/api/schools<path>` with `token`: an object body is sent as JSON, bytes or a stream as they are. */
export function apiCaller(url: string) {
  return async (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> => {
    const json = body !== undefined && !(body instanceof Uint8Array) && !(body instanceof ReadableStream);
    const r = await fetch(`${url}${SCHOOLS_API}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body === undefined ? {} : { body: json ? JSON.stringify(body) : body as RequestInit['body'], duplex: 'half' }),
    } as RequestInit);
    const text = await r.text();
    return { status: r.status, json: text ? JSON.parse(text) : undefined };
  };
}

/**
 * Lanyard's configuration for these tests: the demo; a pupil's emoji path stopped after FAILURE_CAP wrong tries
 * on new devices; Quiz Time, a configuration-file app offered to schools.
 */
export const schoolApiConfig = (): string => writeConfig((c) => {
  c.login_throttling = { ...c.login_throttling, new_device_failure_cap: FAILURE_CAP };
  c.clients.push({ client_id: 'quiz', name: 'Quiz Time', secrets: ['quiz-secret-value'], redirect_uris: ['http://localhost:8080/callback'], default_scopes: ['openid', 'user:read'] });
});

export interface ApiSchools {
  north: ConsoleSchool;
  south: ConsoleSchool;
  /** Tokens: north's admin (two-step sign-in on), north's teacher, south's admin. */
  admin: string;
  teacher: string;
  southAdmin: string;
  call: ReturnType<typeof apiCaller>;
  /** North's audit events of `action`. */
  events: (action: string) => Promise<AuditEvent[]>;
}

/** North (using the Demo App, for help-code sign-ins) and south, with their tokens. */
export async function apiSchools(lanyard: Lanyard): Promise<ApiSchools> {
  const { store } = lanyard;
  const north = await putConsoleSchool(store, 'north');
  const south = await putConsoleSchool(store, 'south');
  await useDemoApp(store, north.organisation.id);
  await putSecondFactor(store, north.admin.user.id);
  await putSecondFactor(store, south.admin.user.id);
  return {
    north, south,
    admin: (await putStaffToken(store, north.admin.user.id)).token,
    teacher: (await putStaffToken(store, north.teacher.user.id)).token,
    southAdmin: (await putStaffToken(store, south.admin.user.id)).token,
    call: apiCaller(lanyard.url),
    events: (action) => auditEvents(lanyard, north.organisation.id, action),
  };
}

/** What an API change's audit event says of who made it. */
export const byApi = (who: Staff) => ({ actorId: who.user.id, detail: { via: 'api' } });
