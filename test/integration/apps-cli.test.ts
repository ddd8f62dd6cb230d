import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { DeveloperAccount } from '../../adapters/store.js';
import { systemClock } from '../../src/clock.js';
import { actorOf } from '../../src/developer/actor.js';
import { AppService } from '../../src/developer/app-service.js';
import { lanyard as cli } from '../helpers/cli.js';
import { writeConfig } from '../helpers/config-file.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';

/**
 * `lanyard apps list [--pending] [--json]`, `apps approve CLIENT_ID`, `apps decline CLIENT_ID [--note]`
 * (docs/developer-area.md): the operator's side of going live; `apps connect|disconnect|connections --org SLUG` (issue
 * 10 §2): which apps a school uses. Run as the real command against the store of a running Lanyard, whose
 * sign-ins follow the decision at once.
 */

const CALLBACK = 'http://localhost:8080/callback';

async function developer(lanyard: Lanyard, email: string): Promise<DeveloperAccount> {
  const now = new Date().toISOString();
  const account: DeveloperAccount = { id: `dev_${email.split('@')[0]}`, email, displayName: email, passwordHash: 'unused', createdAt: now, updatedAt: now };
  await lanyard.store.createDeveloper(account);
  return account;
}

async function scenario(t: Test, lanyardEnv: Record<string, string> = {}) {
  const lanyard = await startLanyard(t, { env: lanyardEnv });
  const service = new AppService({ store: lanyard.store, clock: systemClock, log: lanyard.app.log });
  const ada = await developer(lanyard, 'ada@example.com');
  const bo = await developer(lanyard, 'bo@example.com');
  const app = async (owner: DeveloperAccount, name: string, live: boolean) => {
    const c = await service.register(actorOf(owner), { name });
    await service.addCallback(actorOf(owner), c.clientId, CALLBACK);
    if (live) await service.requestLive(actorOf(owner), c.clientId);
    return c.clientId;
  };
  const tables = await app(ada, 'Tables Trainer', true);
  await new Promise((resolve) => setTimeout(resolve, 5)); // distinct request times
  const reader = await app(bo, 'Reading Rocket', true);
  const draft = await app(ada, 'Draft App', false);
  const env = { LANYARD_STORE: `sqlite:${join(lanyard.dir, 'lanyard.db')}` };
  return { lanyard, service, ada, bo, tables, reader, draft, run: (args: string[]) => cli(['apps', ...args], env) };
}

/** Whether the app may sign in a Demo School user: the organisation step answers 403 while it is in development. */
async function signsInDemoSchool(lanyard: Lanyard, clientId: string): Promise<boolean> {
  const browser = new HttpBrowser();
  const url = `${lanyard.url}/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid&nonce=n&organisation=demo-school`;
  const res = await browser.get(location(await browser.get(url), lanyard.url));
  return res.status === 200 || res.status === 303;
}

t.test('apps list: every app, or the queue waiting to go live, oldest request first', async (t) => {
  const s = await scenario(t);
  const all = await s.run(['list']);
  t.equal(all.code, 0, all.stderr);
  const lines = all.stdout.trim().split('\n');
  t.match(lines[0], /^CLIENT_ID\s+NAME\s+STATUS\s+OWNER\s+REQUESTED$/, 'a table with its headings');
  t.match(all.stdout, new RegExp(`${s.draft}\\s+Draft App\\s+development\\s+ada@example.com\\s+-`), 'a development app, never requested');
  t.match(all.stdout, new RegExp(`${s.tables}\\s+Tables Trainer\\s+pending\\s+ada@example.com\\s+\\d{4}-\\d\\d-\\d\\dT`), 'a pending app, with when it asked');
  t.match(all.stdout, /demo-app\s+Demo App\s+live\s+\(configuration file\)/, 'the configuration file’s apps too');

  const pending = await s.run(['list', '--pending']);
  t.equal(pending.code, 0, pending.stderr);
  const rows = pending.stdout.trim().split('\n').slice(1).filter((l) => !l.startsWith('approve') && !/ (callback|logout_url|initiate_login_uri): /.test(l));
  t.same(rows.map((r) => r.split(/\s+/)[0]), [s.tables, s.reader], 'only the pending apps, oldest request first');
  t.match(pending.stdout, new RegExp(`${s.tables} callback: https?://`), 'each pending app’s callback URLs, as a reviewer reads them');
  t.match(pending.stdout, /bo@example.com/);

  const json = await s.run(['list', '--pending', '--json']);
  const parsed = JSON.parse(json.stdout) as Record<string, unknown>[];
  t.same(parsed.map((a) => a.client_id), [s.tables, s.reader]);
  t.match(parsed[0], { name: 'Tables Trainer', status: 'pending', source: 'developer', owner_email: 'ada@example.com', redirect_uris: [CALLBACK] });
  t.notMatch(json.stdout, /secret|hash/i, 'no secret or hash in the listing');
});

t.test('apps approve: the app is live at once and recorded as the operator’s decision', async (t) => {
  const s = await scenario(t);
  t.notOk(await signsInDemoSchool(s.lanyard, s.tables), 'pending: only the sandbox school');
  const approved = await s.run(['approve', s.tables]);
  t.equal(approved.code, 0, approved.stderr);
  t.match(approved.stdout, new RegExp(`approved "Tables Trainer" \\(${s.tables}\\): it is live now`));
  t.match(approved.stdout, `lanyard apps connect --org SLUG ${s.tables}`, 'says how a school starts using it');
  t.equal((await s.lanyard.store.findClient(s.tables))!.status, 'live');
  t.notOk(await signsInDemoSchool(s.lanyard, s.tables), 'live, but the Demo School does not use it yet (docs/dashboard-and-app-launch.md)');
  const connected = await s.run(['connect', '--org', 'demo-school', s.tables]);
  t.equal(connected.code, 0, connected.stderr);
  t.ok(await signsInDemoSchool(s.lanyard, s.tables), 'the running Lanyard signs in a Demo School user once connected');
  // A live app's team works on it with a second factor (docs/developer-area.md → Changes to a live app).
  const history = await s.service.history({ ...actorOf(s.ada), twoStep: true }, s.tables);
  t.match(history[0], { action: 'app.approved', actorId: 'operator', actorName: 'Lanyard’s operator' }, 'in the app’s history, as the operator');

  const again = await s.run(['approve', s.tables]);
  t.equal(again.code, 1, 'approving twice is refused');
  t.match(again.stderr, new RegExp(`^lanyard: cannot approve "${s.tables}": This app is already live\\.`));
  const listed = await s.run(['list', '--pending']);
  t.notMatch(listed.stdout, s.tables, 'no longer in the queue');
});

t.test('apps decline: back to development with a note the developers see', async (t) => {
  const s = await scenario(t);
  const declined = await s.run(['decline', s.reader, '--note', 'Please add a privacy policy link.']);
  t.equal(declined.code, 0, declined.stderr);
  t.match(declined.stdout, /declined "Reading Rocket" .*back in development.*its developers see your note/);
  const client = (await s.lanyard.store.findClient(s.reader))!;
  t.equal(client.status, 'development');
  t.equal(client.reviewNote, 'Please add a privacy policy link.');
  t.notOk(await signsInDemoSchool(s.lanyard, s.reader), 'still the sandbox school only');
  t.match((await s.service.history(actorOf(s.bo), s.reader))[0], { action: 'app.declined', actorId: 'operator', detail: { note: 'Please add a privacy policy link.' } });

  const notPending = await s.run(['decline', s.draft]);
  t.equal(notPending.code, 1);
  t.match(notPending.stderr, new RegExp(`cannot decline "${s.draft}": This app is not waiting for review`));
});

t.test('unknown ids, config-file clients and missing arguments: one clear line, exit 1', async (t) => {
  const s = await scenario(t);
  for (const args of [['approve', 'no-such-app'], ['decline', 'no-such-app'], ['approve', 'demo-app']]) {
    const r = await s.run(args);
    t.equal(r.code, 1, args.join(' '));
    t.match(r.stderr, new RegExp(`^lanyard: no app "${args[1]}" in the developer area \\(see \`lanyard apps list\`\\)\\n$`), `${args.join(' ')}: says so`);
  }
  const missing = await s.run(['approve']);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /CLIENT_ID/, 'the missing argument is named');
  const help = await s.run(['--help']);
  t.match(help.stdout, /list[\s\S]*approve[\s\S]*decline/, '`lanyard apps --help` lists the commands');
});

t.test('apps connect, connections and disconnect: which apps a school uses, in its order, for some user types', async (t) => {
  // The Demo App listed by no school, and configuration-file apps of every school, as before the school console.
  const s = await scenario(t, { LANYARD_CONFIG: writeConfig((c) => { c.config_apps = 'every_school'; delete c.organisations![0]!.apps; }) });
  await s.run(['approve', s.tables]);
  await s.run(['approve', s.reader]);
  const first = await s.run(['connect', '--org', 'demo-school', s.tables, '--types', 'student']);
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, `connected: Demo School uses "Tables Trainer" (${s.tables}), for student`);
  const second = await s.run(['connect', '--org', 'demo-school', s.reader, '--position', '1']);
  t.equal(second.code, 0, second.stderr);
  const list = await s.run(['connections', '--org', 'demo-school']);
  t.equal(list.code, 0, list.stderr);
  const rows = list.stdout.trim().split('\n');
  t.match(rows[0], /^#\s+CLIENT_ID\s+NAME\s+STATUS\s+USER TYPES\s+CONNECTED BY\s+LAUNCH$/);
  t.match(rows[1], new RegExp(`^1\\s+${s.reader}\\s+Reading Rocket\\s+live\\s+every user\\s+operator\\s+code$`), '--position 1: first');
  t.match(rows[2], new RegExp(`^2\\s+${s.tables}\\s+Tables Trainer\\s+live\\s+student\\s+operator`), 'moved down one place');
  t.match(rows[3], /^3\s+demo-app\s+Demo App\s+live\s+every user\s+configuration file \(every school\)/, 'the file\'s app of every school, after');
  const json = JSON.parse((await s.run(['connections', '--org', 'demo-school', '--json'])).stdout) as { apps: { client_id: string; user_types: string[] | null }[] };
  t.same(json.apps.map((a) => [a.client_id, a.user_types]), [[s.reader, null], [s.tables, ['student']], ['demo-app', null]]);

  const teacherOnly = await s.run(['connect', '--org', 'demo-school', s.tables, '--types', 'employee']);
  t.match(teacherOnly.stdout, /^updated: .*for employee/, 'connecting again changes the types');
  const demo = (await s.lanyard.store.findOrganisation('demo-school'))!;
  t.same((await s.lanyard.store.findConnection(demo.id, s.tables))?.userTypes, ['employee'], 'stored at once, for every instance');

  const off = await s.run(['disconnect', '--org', 'demo-school', s.reader]);
  t.equal(off.code, 0, off.stderr);
  t.match(off.stdout, /disconnected: Demo School no longer uses "Reading Rocket"/);
  t.notOk(await signsInDemoSchool(s.lanyard, s.reader), 'its sign-ins are refused at once');

  for (const [args, message] of [
    [['connect', '--org', 'nowhere', s.tables], /no organisation "nowhere"/],
    [['connect', '--org', 'sandbox', s.tables], /the sandbox school signs in only apps in development/],
    [['connect', '--org', 'demo-school', 'no-such-app'], /no app "no-such-app"/],
    [['connect', '--org', 'demo-school', s.tables, '--types', 'Teachers!'], /not a user type: "Teachers!"/],
    [['connect', '--org', 'demo-school', s.tables, '--position', '0'], /--position: "0" is not a place/],
    [['disconnect', '--org', 'demo-school', s.reader], /is not connected to demo-school/],
    [['disconnect', '--org', 'demo-school', 'demo-app'], /a configuration-file app of every school/],
    [['connect', s.tables], /--org/],
  ] as const) {
    const r = await s.run([...args]);
    t.equal(r.code, 1, args.join(' '));
    t.match(r.stderr, message, `${args.join(' ')}: says why`);
  }
  const draft = await s.run(['connect', '--org', 'demo-school', s.draft]);
  t.match(draft.stdout, /still in development: it signs in the school's users once an operator approves it/, 'a development app may be connected ahead, with a note');
});
