import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { DeveloperAccount } from '../../adapters/store.js';
import { systemClock } from '../../src/clock.js';
import { actorOf } from '../../src/developer/actor.js';
import { AppService } from '../../src/developer/app-service.js';
import { lanyard as cli } from '../helpers/cli.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';

/**
 * `lanyard apps list [--pending] [--json]`, `apps approve CLIENT_ID`, `apps decline CLIENT_ID [--note]`
 * (issue 9 §3): the operator's side of going live, run as the real command against the store of a running
 * Lanyard, whose sign-ins follow the decision at once.
 */

const CALLBACK = 'http://localhost:8080/callback';

async function developer(lanyard: Lanyard, email: string): Promise<DeveloperAccount> {
  const now = new Date().toISOString();
  const account: DeveloperAccount = { id: `dev_${email.split('@')[0]}`, email, displayName: email, passwordHash: 'unused', createdAt: now, updatedAt: now };
  await lanyard.store.createDeveloper(account);
  return account;
}

async function scenario(t: Test) {
  const lanyard = await startLanyard(t);
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
  const rows = pending.stdout.trim().split('\n').slice(1).filter((l) => !l.startsWith('approve'));
  t.same(rows.map((r) => r.split(/\s+/)[0]), [s.tables, s.reader], 'only the pending apps, oldest request first');
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
  t.equal((await s.lanyard.store.findClient(s.tables))!.status, 'live');
  t.ok(await signsInDemoSchool(s.lanyard, s.tables), 'the running Lanyard signs in a Demo School user now');
  const history = await s.service.history(actorOf(s.ada), s.tables);
  t.match(history[0], { action: 'app.approved', actorId: 'operator', actorName: 'operator (lanyard CLI)' }, 'in the app’s history, as the operator');

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
