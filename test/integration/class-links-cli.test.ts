import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { CommandOutput } from '../../src/cli/output.js';
import { commandUser } from '../../src/cli/command-user.js';
import { listClassLinksCommand, makeClassLinkCommand, revokeClassLinkCommand } from '../../src/cli/run-class-links.js';
import { ManualClock } from '../../src/clock.js';
import { readCards } from '../helpers/card-pdf.js';
import { lanyard as run } from '../helpers/cli.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { rosterFixture, tempDir } from '../helpers/roster-files.js';
import { auditEvents, putConsoleSchool } from '../helpers/school-console.js';

/**
 * `lanyard classes link | links | unlink` (docs/childrens-sign-in.md → Class links), as the commands run them,
 * against the store of a running Lanyard: the link printed opens the class's sign-in there (the command and the
 * server share the key its hash is made with) until it is revoked; both changes are in the audit trail as made
 * by `cli:<os user>`. Then the README's walk-through with the real command: a roster imported, a class's
 * emoji cards printed, a class link made, and a pupil in a fresh browser taps their name and the six pictures
 * of their card, typing nothing, onto their dashboard.
 */

function collect(): CommandOutput & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (l) => lines.push(l), err: (l) => lines.push(`stderr: ${l}`) };
}

const cells = (lines: string[]) => lines.map((l) => l.split(/\s{2,}/));

/** Opens `link` in a fresh browser: its status (303 to the school's sign-in, or 404). */
const opens = async (link: string) => (await new HttpBrowser().get(link, { accept: 'text/html' })).status;

async function linkCommands(t: Test, lanyard: Lanyard, clock: ManualClock): Promise<void> {
  const { config, store } = lanyard;
  const north = await putConsoleSchool(store, 'north');
  const taught = north.taught.class;
  const at = { org: 'north', class: taught.sourcedId };

  const empty = collect();
  await listClassLinksCommand(config, clock, at, empty);
  t.same(empty.lines, [`Class A has no live class link (lanyard classes link --org north --class ${taught.sourcedId} makes one)`]);

  const made = collect();
  const start = clock.now();
  await makeClassLinkCommand(config, clock, { ...at, minutes: '90' }, made);
  const until = new Date(start.getTime() + 90 * 60_000);
  const [link] = await store.listClassLinks(north.organisation.id, taught.id, start.toISOString());
  t.ok(link, 'kept in the store');
  t.equal(link!.expiresAt, until.toISOString(), 'for 90 minutes');
  t.same(link!.createdBy, { id: commandUser(), username: commandUser() }, 'made by cli:<os user>');
  const code = /^ {2}code: ([0-9A-Z]{5}-[0-9A-Z]{5}) /.exec(made.lines[1] ?? '')?.[1];
  t.ok(code, `the code, spaced: ${code}`);
  const url = `${lanyard.url}/class/${code!.replace('-', '')}`;
  t.same(made.lines, [
    `class link for Class A at School north, until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC (90 minutes):`,
    `  code: ${code}   (typed at ${lanyard.url}/class)`,
    `  link: ${url}`,
    "shown once: Lanyard keeps only a keyed hash of the code. Anyone with it sees the class's first names until then;",
    `end it sooner with: lanyard classes unlink --org north --class ${taught.sourcedId} --link ${link!.id}`,
  ], 'the code, the link and until when');
  t.notMatch(JSON.stringify(link), code!.replace('-', ''), 'the store keeps no code');
  const opened = await new HttpBrowser().get(url, { accept: 'text/html' });
  t.equal(opened.status, 303, 'the printed link opens on the server');
  t.equal(opened.headers.get('location'), '/sign-in?org=north', "on to the school's sign-in");

  clock.advance(60_000);
  const json = collect();
  await makeClassLinkCommand(config, clock, { org: 'north', class: taught.id, minutes: '60', json: true }, json);
  const second = JSON.parse(json.lines.join('\n'));
  t.match(second, { id: /^[0-9a-f]{24}$/, classId: taught.id, code: /^[0-9A-Z]{5}-[0-9A-Z]{5}$/, url: `${lanyard.url}/class/${second.code.replace('-', '')}` }, '--json, the class by its id');
  t.equal(second.expiresAt, new Date(clock.now().getTime() + 3_600_000).toISOString(), 'an hour unless --minutes says');
  t.equal(await opens(second.url), 303);

  const table = collect();
  await listClassLinksCommand(config, clock, at, table);
  const minute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  t.same(cells(table.lines), [
    ['ID', 'MADE BY', 'MADE (UTC)', 'UNTIL (UTC)'],
    [second.id, commandUser(), minute(start.getTime() + 60_000), minute(start.getTime() + 60_000 + 3_600_000)],
    [link!.id, commandUser(), minute(start.getTime()), minute(until.getTime())],
  ], 'the live links, newest first, never a code');
  t.notMatch(table.lines.join('\n'), code!, 'no code listed');
  const listedJson = collect();
  await listClassLinksCommand(config, clock, { ...at, json: true }, listedJson);
  t.same(JSON.parse(listedJson.lines.join('\n')).map((l: { id: string; madeBy: string }) => [l.id, l.madeBy]), [[second.id, commandUser()], [link!.id, commandUser()]], '--json');

  await t.rejects(makeClassLinkCommand(config, clock, { ...at, minutes: '1441' }, collect()), /--minutes: "1441" is not a number of minutes from 1 to 1440 \(a day\)/, 'more than a day: refused');
  await t.rejects(makeClassLinkCommand(config, clock, { ...at, minutes: '0' }, collect()), /--minutes/);
  await t.rejects(makeClassLinkCommand(config, clock, { ...at, minutes: 'an hour' }, collect()), /--minutes/);
  await t.rejects(makeClassLinkCommand(config, clock, { org: 'north', class: 'nope', minutes: '60' }, collect()), /no class "nope" in School north/);
  await t.rejects(revokeClassLinkCommand(config, clock, { org: 'north', class: north.other.class.sourcedId, link: link!.id }, collect()),
    /Class B has no live class link "[0-9a-f]+" \(lanyard classes links --org north --class north-class-b lists them\)/, 'not through another class');
  t.equal(await opens(url), 303, 'still open');

  const revoked = collect();
  await revokeClassLinkCommand(config, clock, { ...at, link: link!.id }, revoked);
  t.same(revoked.lines, [`revoked the class link ${link!.id} of Class A: its link and code open nothing from now on`]);
  t.equal(await opens(url), 404, 'the revoked link opens nothing');
  t.equal(await opens(second.url), 303, 'the other still does');
  await t.rejects(revokeClassLinkCommand(config, clock, { ...at, link: link!.id }, collect()), /has no live class link/, 'revoked already');
  clock.advance(3_600_000);
  t.equal(await opens(second.url), 404, 'an hour later, the other has ended');

  const by = { actorId: commandUser(), actorName: commandUser() };
  const created = await auditEvents(lanyard, north.organisation.id, 'class_link.created');
  t.match(created, [
    { ...by, kind: 'console', classId: taught.id, detail: { link: second.id, minutes: '60' } },
    { ...by, kind: 'console', classId: taught.id, detail: { link: link!.id, minutes: '90', class: 'Class A', expiresAt: link!.expiresAt } },
  ], 'each made, in the audit trail, by cli:<os user>');
  t.equal(created.length, 2, 'nothing refused is recorded');
  t.notMatch(JSON.stringify(created), code!.replace('-', ''), 'never the code');
  t.match(await auditEvents(lanyard, north.organisation.id, 'class_link.revoked'), [{ ...by, classId: taught.id, detail: { link: link!.id } }]);
}

t.test('classes link, links and unlink on SQLite', async (t) => {
  const clock = new ManualClock();
  await linkCommands(t, await startLanyard(t, { clock }), clock);
});

t.test('classes link, links and unlink on Redis', async (t) => {
  const clock = new ManualClock();
  const redis = await startRedis(t, { aof: false });
  await linkCommands(t, await startLanyard(t, { clock, env: redisStoreEnv(redis.url, 'class-links-cli') }), clock);
});

t.test("the README's walk-through: roster, emoji cards, a class link; a pupil taps their name and pictures onto their dashboard", async (t) => {
  const lanyard = await startLanyard(t);
  const env = { LANYARD_STORE: lanyard.config.storeUrl, PORT: String(lanyard.config.port) };
  const dir = tempDir(t);
  const step = async (args: string[]) => {
    const done = await run(args, env);
    t.equal(done.code, 0, `lanyard ${args.join(' ')}: ${done.stderr}`);
    return done.stdout;
  };
  await step(['roster', 'import', rosterFixture('oneroster-1.1')]);
  const pdf = join(dir, '3a.pdf');
  await step(['credentials', 'issue', '--org', 'riverside-primary-school', '--class', 'c-3a', '--method', 'emoji', '--out', pdf]);
  const printed = await step(['classes', 'link', '--org', 'riverside-primary-school', '--class', 'c-3a']);
  t.match(printed, /^class link for Class 3A at Riverside Primary School, until \d{4}-\d\d-\d\d \d\d:\d\d UTC \(60 minutes\):\n/, 'until when');
  const link = /^ {2}link: (\S+)$/m.exec(printed)?.[1];
  t.match(link, new RegExp(`^${lanyard.url}/class/[0-9A-Z]{10}$`), 'the link, under the server’s issuer');

  // Another browser: the link, then the class's name tiles.
  const browser = new HttpBrowser();
  let res = await browser.get(link!, { accept: 'text/html' });
  let hops = 0;
  while (res.status >= 300 && res.status < 400 && hops++ < 10) res = await browser.get(location(res, lanyard.url), { accept: 'text/html' });
  t.equal(res.status, 200, 'the link leads to a page');
  const tiles = await res.text();
  t.match(tiles, /Who are you\?/, 'the class’s name tiles');
  const tile = /<a class="name-tile" href="([^"]+)">[\s\S]*?<span class="tile-name" dir="auto">([^<]+)<\/span>/.exec(tiles);
  t.ok(tile, 'a tile to tap');

  // The tapped pupil's card: their six pictures, from 3a.pdf.
  const uid = tile![1]!.split('/')[2]!;
  const pupilId = decodeURIComponent(tile![1]!.split('/')[4]!.split('?')[0]!);
  const pupil = (await lanyard.store.findUser(pupilId))!;
  t.ok(tile![2]!.startsWith(pupil.givenName), `the first tile is ${pupil.givenName}’s`);
  const count = tiles.split('class="name-tile"').length - 1;
  const card = (await readCards(pdf, count)).find((c) => c.username === pupil.username);
  t.ok(card, `${pupil.givenName}’s card is in 3a.pdf`);

  const keyboard = await browser.get(new URL(tile![1]!, lanyard.url), { accept: 'text/html' });
  t.equal(keyboard.status, 200, 'their pictures’ keyboard');
  const keys = await keyboard.text();
  t.notOk(keys.includes('name="username"'), 'no username to type');
  const csrf = /name="csrf" value="([^"]*)"/.exec(keys)![1]!;
  res = await browser.post(`${lanyard.url}/interaction/${uid}/pupil/${encodeURIComponent(pupilId)}/emoji`, {
    csrf, org: 'riverside-primary-school', emoji: card!.pictures.join(','), go: '1',
  });
  t.equal(res.status, 303, 'the six pictures of their card sign them in');
  hops = 0;
  while (res.status >= 300 && res.status < 400 && hops++ < 10) res = await browser.get(location(res, lanyard.url), { accept: 'text/html' });
  t.equal(res.status, 200);
  t.match(await res.text(), `Hello, ${pupil.givenName}`, 'their dashboard');
});
