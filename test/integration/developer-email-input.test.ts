import t from 'tap';
import { systemClock } from '../../src/clock.js';
import { inviteDeveloperCommand } from '../../src/cli/run-developers.js';
import { inspectConfigFile } from '../../src/config/file.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { writeConfig } from '../helpers/config-file.js';
import { apiClient } from '../helpers/developer-api-client.js';
import { createDeveloper, csrfOf, DEVELOPER_PASSWORD, formCsrf, signInDeveloper } from '../helpers/developer.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';

/**
 * Email addresses everywhere one is accepted (docs/security.md → Text people type): an address holding an
 * invisible, direction or control character is refused with a message naming it, and nothing is stored;
 * an address stored before this shows such characters written out, never raw. Before, sign-up, team
 * invitations (page and API) and the operator's invitation took `carol@example.org\u200b` as an address.
 */

/** One of each class, where people would not see it: after, inside, before. */
const BAD: [string, RegExp][] = [
  ['carol@example.org\u200B', /invisible character \(U\+200B\)/],
  ['\uFEFFcarol@example.org', /invisible character \(U\+FEFF\)/],
  ['car\u00ADol@example.org', /invisible character \(U\+00AD\)/],
  ['carol@\u202Egro.elpmaxe', /direction of text \(U\+202E\)/],
  ['carol\u2066@example.org', /direction of text \(U\+2066\)/],
  ['carol@example.org\u0000', /control character \(U\+0000\)/],
  ['carol@exam\u0085ple.org', /control character \(U\+0085\)/],
];
const RAW = /[\u200B\uFEFF\u00AD\u202E\u2066\u0000\u0085]/u;

const openLanyard = (t: Parameters<typeof startLanyard>[0]) =>
  startLanyard(t, { env: { LANYARD_CONFIG: writeConfig((c) => { c.developer_signup = 'open'; }) } });

async function signUpForm(lanyard: Lanyard, email: string) {
  const b = new HttpBrowser();
  const { csrf } = await formCsrf(b, `${lanyard.url}/developer/sign-up`);
  const res = await b.post(`${lanyard.url}/developer/sign-up`, { csrf, email, displayName: 'Carol', password: DEVELOPER_PASSWORD, confirm: DEVELOPER_PASSWORD });
  return { res, page: await res.text(), browser: b };
}

t.test('sign-up refuses each, says which character, stores nothing; an IDN domain is kept as punycode and signs in typed either way', async (t) => {
  const lanyard = await openLanyard(t);
  for (const [email, message] of BAD) {
    const { res, page } = await signUpForm(lanyard, email);
    t.equal(res.status, 400, `${JSON.stringify(email)}: 400`);
    t.match(page, message, 'the message names the character');
    t.notMatch(page, RAW, 'the page never holds it raw (the form shows what was typed with it written out)');
    t.match(page, /name="email"[^>]*value="[^"]*\[U\+[0-9A-F]{4}\]/, 'the field shows it written out');
  }
  t.same(await lanyard.store.listDevelopers(), [], 'no account made');

  const { res } = await signUpForm(lanyard, ' Zoe@Bücher.Example ');
  t.equal(res.status, 303);
  t.ok(await lanyard.store.findDeveloperByEmail('zoe@xn--bcher-kva.example'), 'kept as punycode');
  for (const typed of ['zoe@bücher.example', 'ZOE@XN--BCHER-KVA.EXAMPLE']) {
    await signInDeveloper(lanyard, { email: typed, password: DEVELOPER_PASSWORD });
    t.pass(`signs in as ${typed}`);
  }
});

t.test('team invitations, page and API, and the operator’s invitation refuse each; nothing changes', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await createDeveloper(lanyard, { name: 'Ada' });
  const token = (await new ApiTokens({ store: lanyard.store, clock: systemClock, log: lanyard.app.log })
    .create((await lanyard.store.findDeveloper(ada.id))!, { label: 'script', expiresInDays: 30 })).token;
  const call = apiClient(lanyard);
  const { json: app } = await call(token, 'POST', '/apps', { name: 'Reading Quest' });
  const team = `${lanyard.url}/developer/apps/${app.client_id}/team`;
  const csrf = csrfOf(await (await ada.browser.get(team)).text());
  const before = JSON.stringify(await lanyard.store.listTeam(app.client_id));

  for (const [email, message] of BAD) {
    const page = await ada.browser.post(team, { csrf, email });
    t.equal(page.status, 400, `page, ${JSON.stringify(email)}: 400`);
    const text = await page.text();
    t.match(text, message);
    t.notMatch(text, RAW, 'never raw on the page');
    const api = await call(token, 'POST', `/apps/${app.client_id}/team`, { email });
    t.equal(api.status, 400, `API, ${JSON.stringify(email)}: 400`);
    t.match(api.json, { error: 'invalid_request', error_description: message, fields: [{ path: '/email', message }] });
    const out: string[] = [];
    const cli = await inviteDeveloperCommand(lanyard.config, systemClock, email, { out: (l) => out.push(l), err: (l) => out.push(l) }).catch((e: Error) => e);
    t.match(cli, { message }, 'lanyard developers invite: refused, in the same words');
    t.same(out, [], 'and prints no link');
  }
  t.equal(JSON.stringify(await lanyard.store.listTeam(app.client_id)), before, 'the team is as it was');
  t.notOk(lanyard.logs.some((l) => l.includes('team_member_invited')), 'no invitation recorded');
});

t.test('addresses stored before this show each such character written out on the team page and its history', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await createDeveloper(lanyard, { name: 'Ada' });
  const csrf = csrfOf(await (await ada.browser.get(`${lanyard.url}/developer/apps/new`)).text());
  const reg = await ada.browser.post(`${lanyard.url}/developer/apps/new`, { csrf, name: 'Reading Quest', description: '', homepage_url: '', logo_url: '' });
  const clientId = /app_[0-9a-f]{32}/.exec(reg.headers.get('location')!)![0];
  const now = new Date().toISOString();
  await lanyard.store.createDeveloper({ id: 'dev_old', email: 'mallory\u200B@example.org', displayName: 'Mallory', passwordHash: 'x', createdAt: now, updatedAt: now });
  await lanyard.store.putTeamMember({ clientId, developerId: 'dev_old', role: 'member', addedAt: now });
  await lanyard.store.putTeamMember({ clientId, developerId: 'address:eve@gro.elpmaxe\u202E\u0000', role: 'invited', addedAt: now, invitedBy: ada.id });
  await lanyard.store.appendDeveloperEvent({ subject: `app:${clientId}`, at: now, actorId: ada.id, actorName: 'Ada', action: 'team.member_invited', detail: { email: 'eve\u2066@example.org' } });
  for (const path of ['team', 'history']) {
    const page = await (await ada.browser.get(`${lanyard.url}/developer/apps/${clientId}/${path}`)).text();
    // A hidden field carries the invitation's id back as it is stored (nobody sees it); nothing shown holds one.
    t.notMatch(page.replace(/type="hidden" name="developer_id" value="[^"]*"/g, ''), /[\u200B\u202E\u0000\u2066]/u, `${path}: none raw`);
  }
  const team = (await (await ada.browser.get(`${lanyard.url}/developer/apps/${clientId}/team`)).text()).replace(/<wbr>|<\/?span>/g, '');
  t.match(team, 'mallory[U+200B]@example.org');
  t.match(team, 'eve@gro.elpmaxe[U+202E][U+0000]');
  const history = (await (await ada.browser.get(`${lanyard.url}/developer/apps/${clientId}/history`)).text()).replace(/<wbr>|<\/?span>/g, '');
  t.match(history, 'eve[U+2066]@example.org');
});

t.test('the configuration file: a user’s address with one is refused, naming the field and the character', async (t) => {
  const path = writeConfig((c) => {
    c.organisations![0]!.users![0]!.email = 'teacher@demo-school.example\u200B';
    c.organisations![0]!.users![1]!.google_email = 'pupil\u202E@demo-school-google.example';
  });
  const { file, problems } = inspectConfigFile(path, { usingDemo: false });
  t.equal(file, undefined, 'not taken');
  t.ok(problems.some((p) => p.endsWith('/organisations/0/users/0/email: The email address contains an invisible character (U+200B): type the address again without it.')), 'email');
  t.ok(problems.some((p) => /\/organisations\/0\/users\/1\/google_email: .*direction of text \(U\+202E\)/.test(p)), 'google_email');
});
