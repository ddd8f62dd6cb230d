import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEvent, Organisation, Store } from '../../adapters/store.js';
import { openMethod, postEmoji } from './children.js';
import { type TestClass, PUPIL_NAMES, putClass } from './class-roster.js';
import { writeConfig } from './config-file.js';
import { HttpBrowser } from './http-browser.js';
import { type Lanyard, startLanyard } from './lanyard.js';
import { redisStoreEnv, startRedis } from './redis-server.js';
import { type ConsoleSchool, consoleSignInAsStaff, putConsoleSchool, putStaffUser, type Staff } from './school-console.js';

/**
 * A teacher's class in the school console (docs/school-console.md → Your classes): Demo School (whose pupils
 * sign in to the demo app) with a teacher of Class 3B (five pupils) signed in to the console, Class 4C taught
 * by someone else, and another school. Sign-in from new devices stops after two wrong tries here
 * (login_throttling.new_device_failure_cap), so that a test can lock a pupil quickly.
 */
export interface ClassConsole {
  lanyard: Lanyard;
  organisation: Organisation;
  teacher: Staff;
  /** The teacher's console, signed in. */
  browser: HttpBrowser;
  taught: TestClass;
  other: TestClass;
  south: ConsoleSchool;
  /** A folder for PDFs, removed with the test. */
  dir: string;
  /** `/school/demo-school` + rest. */
  at: (rest: string) => string;
}

export const FAILURE_CAP = 2;

interface Teardown { teardown(fn: () => unknown): void }

export async function classConsole(t: Teardown, o: { redis?: boolean } = {}): Promise<ClassConsole> {
  const config = writeConfig((c) => { c.login_throttling = { ...c.login_throttling, new_device_failure_cap: FAILURE_CAP }; });
  const store = o.redis ? redisStoreEnv((await startRedis(t, { aof: false })).url, 'console') : {};
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config, ...store } });
  const organisation = (await lanyard.store.findOrganisation('demo-school'))!;
  const teacher = await putStaffUser(lanyard.store, organisation, 'tess', 'Tess', 'Teacher');
  const taught = await putClass(lanyard.store, {
    organisationId: organisation.id, sourcedId: 'class-3b', title: 'Class 3B', pupils: PUPIL_NAMES.slice(0, 5), prefix: 'p3b-',
    others: [{ user: teacher.user, role: 'teacher' }],
  });
  const other = await putClass(lanyard.store, { organisationId: organisation.id, sourcedId: 'class-4c', title: 'Class 4C', pupils: PUPIL_NAMES.slice(5, 8), prefix: 'p4c-' });
  const south = await putConsoleSchool(lanyard.store, 'south');
  const browser = await consoleSignInAsStaff(lanyard.url, teacher.credentials);
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-console-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { lanyard, organisation, teacher, browser, taught, other, south, dir, at: (rest) => `${lanyard.url}/school/demo-school${rest}` };
}

/** Wrong pictures from new devices, as often as it takes to stop that path for the pupil (FAILURE_CAP) of `org`. */
export async function lockOut(issuer: string, username: string, org = 'demo-school'): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < FAILURE_CAP; i++) {
    const browser = new HttpBrowser();
    const step = await openMethod(browser, issuer, 'emoji', org);
    statuses.push((await postEmoji(browser, issuer, step, username, ['dog', 'dog', 'dog', 'dog', 'dog', 'cat'])).status);
  }
  return statuses;
}

/** The table row of a pupil on the class page (the row whose box names their id). */
export function rowOf(page: string, userId: string): string {
  const row = page.split('<tr>').find((r) => r.includes(`value="${userId}"`));
  if (!row) throw new Error(`no row for ${userId}`);
  return row.slice(0, row.indexOf('</tr>'));
}

/** A PDF answer, checked for what every printed answer must be, written to `dir/name` for poppler. */
export async function savedPdf(res: Response, dir: string, name: string): Promise<{ path: string; disposition: string; cache: string }> {
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(await res.arrayBuffer()));
  return { path, disposition: res.headers.get('content-disposition') ?? '', cache: res.headers.get('cache-control') ?? '' };
}

/**
 * The school's audit events matching `want`, once they are written (the recorder writes off the request's path):
 * asked again for up to five seconds until `count` are there.
 */
export async function auditEvents(store: Store, organisationId: string, want: Partial<AuditEvent>, count: number): Promise<AuditEvent[]> {
  const matches = (e: AuditEvent) => Object.entries(want).every(([k, v]) => e[k as keyof AuditEvent] === v);
  for (let waited = 0; ; waited += 100) {
    const found = (await store.queryAudit({ organisationId, limit: 500 })).filter(matches);
    if (found.length >= count || waited >= 5000) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
