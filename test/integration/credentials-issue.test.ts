import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import t, { type Test } from 'tap';
import type { User } from '../../adapters/store.js';
import { argon2Verify, hashCredential } from '../../src/accounts/credential-hasher.js';
import { GENERATED_ALPHABET } from '../../src/accounts/user-password.js';
import { labelPlacement, sheetLayout, toPixels } from '../../src/badges/label-layout.js';
import { letterSheet } from '../../src/cards/card-layout.js';
import { EMOJI_BANK } from '../../src/formats/emoji-bank.js';
import { assertSession, refusedSignIn, signInAs } from '../helpers/account-session.js';
import { crop, jsQR, run, textIn } from '../helpers/badge-pdf.js';
import { readCards } from '../helpers/card-pdf.js';
import { PUPIL_NAMES, putClass, putVisitor, type TestClass } from '../helpers/class-roster.js';
import { lanyard } from '../helpers/cli.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';

/**
 * `lanyard credentials issue` (docs/rostering.md → Credentials for a class), run as the real command against
 * the store of a running Lanyard: everyone selected gets a credential at once, the one PDF holds them (read
 * back with poppler), each signs in, and nothing secret reaches standard output.
 */

const BANK_NAMES = EMOJI_BANK.map(([name]) => name);

interface School { lanyard: Lanyard; dir: string; class3b: TestClass; teacher: User; orgId: string; env: Record<string, string> }

/** Demo School with a class of `pupils`, in a running Lanyard on SQLite, or on a test Redis with `redis`. */
async function school(t: Test, pupils: number = PUPIL_NAMES.length, o: { redis?: boolean } = {}): Promise<School> {
  const env = o.redis ? redisStoreEnv((await startRedis(t, { aof: false })).url, 'credentials') : undefined;
  const lanyard = await startLanyard(t, env ? { env } : {});
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-credentials-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const org = (await lanyard.store.findOrganisation('demo-school'))!;
  const teacher = (await lanyard.store.findUserByUsername(org.id, 'teacher'))!;
  const class3b = await putClass(lanyard.store, {
    organisationId: org.id, sourcedId: 'class-3b', title: 'Class 3B', pupils: PUPIL_NAMES.slice(0, pupils), prefix: 'p3b-',
    others: [{ user: teacher, role: 'teacher' }],
  });
  return { lanyard, dir, class3b, teacher, orgId: org.id, env: env ?? { LANYARD_STORE: `sqlite:${join(lanyard.dir, 'lanyard.db')}` } };
}

const issue = (s: School, args: string[]) => lanyard(['credentials', 'issue', '--org', 'demo-school', ...args], s.env);

/** Pupils in the order the cards are printed: by family name, then given name. */
const printOrder = (users: User[]) => {
  const c = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }).compare;
  return [...users].sort((a, b) => c(a.familyName, b.familyName) || c(a.givenName, b.givenName));
};

const noSecretIn = (t: Test, out: string, secrets: string[]) => {
  for (const secret of secrets) t.notOk(out.includes(secret), `the output does not hold ${secret}`);
};

t.test('emoji for a class of 30: one PDF of cards, each password signs in; the teacher is left alone; sessions of replaced ones end', async (t) => {
  const s = await school(t);
  // Ada already has an emoji password and is signed in with it: it is replaced, and her session ends.
  const ada = s.class3b.pupils[0]!;
  await s.lanyard.store.setCredential(ada.id, 'emoji', await hashCredential('dog,dog,dog,dog,dog,dog'));
  const before = await signInAs(s.lanyard.url, { emoji: Array(6).fill('dog'), username: ada.username });
  const out = join(s.dir, 'cards.pdf');

  const started = Date.now();
  const result = await issue(s, ['--class', 'class-3b', '--method', 'emoji', '--out', out]);
  t.comment(`30 emoji passwords issued and printed in ${Date.now() - started} ms (the command's whole run)`);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /emoji passwords issued to 30 user\(s\) of Class 3B at Demo School; emoji cards written to .*cards\.pdf \(readable by you only\)/);
  t.match(result.stdout, /earlier emoji passwords of these users no longer work/);
  t.equal(statSync(out).mode & 0o777, 0o600, 'the PDF is readable by its owner only');
  t.same(readdirSync(s.dir), ['cards.pdf'], 'and nothing else is left beside it');
  t.match((await run('pdfinfo', [out])).stdout, /^Pages:\s+4$/m, '30 cards, 8 a page');

  const cards = await readCards(out, 30);
  const pupils = printOrder(s.class3b.pupils);
  for (const [i, card] of cards.entries()) {
    const pupil = pupils[i]!;
    t.equal(card.username, pupil.username, `card ${i + 1} is ${pupil.givenName} ${pupil.familyName}'s`);
    t.ok(card.text.includes(`${pupil.givenName} ${pupil.familyName}`), `card ${i + 1}: the name as written`);
    t.ok(card.text.includes('Class 3B · Demo School'), `card ${i + 1}: class and school`);
    t.same(card.numbers, ['1', '2', '3', '4', '5', '6'], `card ${i + 1}: numbered 1 to 6`);
    t.ok(card.pictures.every((p) => BANK_NAMES.includes(p as never)), `card ${i + 1}: six named pictures of the bank`);
    const hash = (await s.lanyard.store.getCredential(pupil.id, 'emoji'))!;
    t.ok(await argon2Verify(hash, card.pictures.join(',')), `card ${i + 1}: the pictures in order are the stored emoji password`);
  }
  noSecretIn(t, result.stdout + result.stderr, cards.map((c) => c.pictures.join(',')));
  t.equal(await s.lanyard.store.getCredential(s.teacher.id, 'emoji'), undefined, 'the class\'s teacher got none');

  await assertSession(t, before, s.lanyard.url, false, 'Ada\'s session with her old emoji password');
  t.equal((await refusedSignIn(s.lanyard.url, { emoji: Array(6).fill('dog'), username: ada.username })).status, 401, 'the old one is refused');
  for (const i of [0, 29]) {
    const signedIn = await signInAs(s.lanyard.url, { emoji: cards[i]!.pictures, username: cards[i]!.username! });
    await assertSession(t, signedIn, s.lanyard.url, true, `${cards[i]!.username} signs in with the pictures of their card`);
  }
});

t.test('on Redis: a class\'s emoji cards, each matching the stored password, the first and last signing in', async (t) => {
  const s = await school(t, 9, { redis: true });
  const out = join(s.dir, 'cards.pdf');
  const result = await issue(s, ['--class', 'class-3b', '--method', 'emoji', '--out', out]);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /emoji passwords issued to 9 user\(s\) of Class 3B at Demo School/);
  const cards = await readCards(out, 9);
  const pupils = printOrder(s.class3b.pupils);
  for (const [i, card] of cards.entries()) {
    const hash = (await s.lanyard.store.getCredential(pupils[i]!.id, 'emoji'))!;
    t.ok(card.username === pupils[i]!.username && await argon2Verify(hash, card.pictures.join(',')), `card ${i + 1}: ${card.username}'s stored emoji password`);
  }
  for (const i of [0, 8]) {
    const signedIn = await signInAs(s.lanyard.url, { emoji: cards[i]!.pictures, username: cards[i]!.username! });
    await assertSession(t, signedIn, s.lanyard.url, true, `${cards[i]!.username} signs in with the pictures of their card`);
  }
});

t.test('--only-missing skips those who have one; with nobody left, no file is written', async (t) => {
  const s = await school(t, 5);
  const [first, second] = s.class3b.pupils;
  const kept = await hashCredential('cat,cat,cat,cat,cat,cat');
  await s.lanyard.store.setCredential(first!.id, 'emoji', kept);
  await s.lanyard.store.setCredential(second!.id, 'password', await hashCredential('not-an-emoji-password')); // another kind

  const out = join(s.dir, 'missing.pdf');
  const result = await issue(s, ['--class', 'class-3b', '--method', 'emoji', '--only-missing', '--out', out]);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /emoji passwords issued to 4 user\(s\)/);
  t.match(result.stdout, /skipped 1 who already had one \(--only-missing\)/);
  t.equal(await s.lanyard.store.getCredential(first!.id, 'emoji'), kept, 'the one who had an emoji password keeps it');
  const cards = await readCards(out, 4);
  t.notOk(cards.some((c) => c.username === first!.username), 'and has no card');
  t.ok(cards.some((c) => c.username === second!.username), 'a password is another kind: an emoji card for them');

  const again = await issue(s, ['--class', 'class-3b', '--method', 'emoji', '--only-missing', '--out', join(s.dir, 'again.pdf')]);
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, /nothing to issue: all 5 selected user\(s\) of Class 3B at Demo School already have an emoji password; no file written/);
  t.notOk(existsSync(join(s.dir, 'again.pdf')), 'no file');
});

t.test('--only-missing counts a pupil whose own school is another one: their credential there is theirs', async (t) => {
  const s = await school(t, 2);
  const hill = await s.lanyard.store.upsertOrganisation({ slug: 'hill-school', name: 'Hill School' });
  const eve = await s.lanyard.store.upsertUser({ organisationId: hill.id, username: 'eve', givenName: 'Eve', familyName: 'Adams', type: 'student' });
  await putVisitor(s.lanyard.store, s.class3b.class, eve, 'student');
  const eves = await hashCredential('owl,owl,owl,owl,owl,owl');
  await s.lanyard.store.setCredential(eve.id, 'emoji', eves);

  const out = join(s.dir, 'missing.pdf');
  const result = await issue(s, ['--class', 'class-3b', '--method', 'emoji', '--only-missing', '--out', out]);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /emoji passwords issued to 2 user\(s\)/, 'the two pupils of this school');
  t.match(result.stdout, /skipped 1 who already had one \(--only-missing\)/, 'Eve has one, at her own school');
  t.equal(await s.lanyard.store.getCredential(eve.id, 'emoji'), eves, 'and keeps it');
  t.notOk((await readCards(out, 3)).some((c) => c.username === eve.username), 'no card for her');

  const badges = await issue(s, ['--class', 'class-3b', '--method', 'badge', '--out', join(s.dir, 'badges.pdf')]);
  t.match(badges.stdout, /badges issued to 3 user\(s\)/, 'without --only-missing she is one of the class\'s pupils');
  const again = await issue(s, ['--class', 'class-3b', '--method', 'badge', '--only-missing', '--out', join(s.dir, 'none.pdf')]);
  t.match(again.stdout, /nothing to issue: all 3 selected user\(s\) of Class 3B at Demo School already have an active badge/, 'her badge, of her own school, counts');
});

t.test('badges for users named: the sheet\'s QR codes decode to badges that sign in; --only-missing skips active badges', async (t) => {
  const s = await school(t, 3);
  const names = s.class3b.pupils.map((p) => p.username);
  const out = join(s.dir, 'badges.pdf');
  const result = await issue(s, ['--users', names.join(','), '--method', 'badge', '--paper', 'a4', '--out', out]);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /badges issued to 3 user\(s\) of Demo School; badge sheet written to/);
  await run('pdftoppm', ['-r', '150', '-png', out, join(s.dir, 'page')]);
  const page = PNG.sync.read(readFileSync(join(s.dir, readdirSync(s.dir).find((f) => f.endsWith('.png'))!)));
  const layout = sheetLayout('a4');
  for (const [i, username] of names.entries()) {
    const { cell } = labelPlacement(layout, i);
    const px = toPixels(cell, 150);
    const qr = jsQR(crop(page, px), px.width, px.height)?.data;
    t.match(qr, /^LB1:[0-9A-Z]{26}$/, `label ${i + 1}: a badge QR code`);
    noSecretIn(t, result.stdout + result.stderr, [qr!.slice(4)]);
    const signedIn = await signInAs(s.lanyard.url, { badge: qr!.slice(4) });
    t.equal(signedIn.claims.sub, s.class3b.pupils[i]!.id, `label ${i + 1}: ${username}'s badge signs ${username} in`);
  }
  const again = await issue(s, ['--users', names.join(','), '--method', 'badge', '--only-missing', '--out', join(s.dir, 'none.pdf')]);
  t.match(again.stdout, /nothing to issue: all 3 selected user\(s\) of Demo School already have an active badge/);
});

t.test('password letters for a class: each password signs in, never printed to the terminal', async (t) => {
  const s = await school(t, 3);
  const out = join(s.dir, 'letters.pdf');
  const result = await issue(s, ['--class', s.class3b.class.id, '--method', 'password', '--out', out]);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /passwords issued to 3 user\(s\) of Class 3B at Demo School; password letters written to/);
  const sheet = letterSheet('letter');
  const symbol = `[${GENERATED_ALPHABET}]{4}`;
  for (const [i, pupil] of printOrder(s.class3b.pupils).entries()) {
    const { page, cell } = labelPlacement(sheet, i);
    const text = (await textIn(out, page, cell)).replace(/[ \t]+/g, ' ');
    t.ok(text.includes(`Username ${pupil.username}`), `letter ${i + 1}: ${pupil.username}`);
    t.ok(text.includes('Class 3B') && text.includes('Demo School'), `letter ${i + 1}: class and school`);
    const password = new RegExp(`Password (${symbol}-${symbol}-${symbol}-${symbol})`).exec(text)?.[1];
    t.ok(password, `letter ${i + 1}: a generated password`);
    noSecretIn(t, result.stdout + result.stderr, [password!]);
    const signedIn = await signInAs(s.lanyard.url, { password: { username: pupil.username, password: password!, organisation: 'demo-school' } });
    t.equal(signedIn.claims.sub, pupil.id, `letter ${i + 1}: the password signs ${pupil.username} in`);
  }
});

t.test('refusals: no selection, an unknown class or user, an existing file without --force (nothing issued)', async (t) => {
  const s = await school(t, 2);
  const out = join(s.dir, 'cards.pdf');
  const none = await issue(s, ['--method', 'emoji', '--out', out]);
  t.equal(none.code, 1);
  t.match(none.stderr, /choose who: --class ID, --users a,b, or both; see lanyard credentials issue --help/);
  const unknown = await issue(s, ['--class', 'class-9z', '--method', 'emoji', '--out', out]);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /no class "class-9z" in Demo School \(lanyard classes list --org demo-school lists them\)/);
  const nobody = await issue(s, ['--users', 'nobody', '--method', 'emoji', '--out', out]);
  t.match(nobody.stderr, /no user "nobody" in Demo School/);
  t.notOk(existsSync(out), 'no file for a refused command');

  writeFileSync(out, 'last week\'s cards');
  const exists = await issue(s, ['--class', 'class-3b', '--method', 'emoji', '--out', out]);
  t.equal(exists.code, 1);
  t.match(exists.stderr, /cannot write .*cards\.pdf: the file exists \(choose another name, or --force to replace it\)/);
  t.equal(readFileSync(out, 'utf8'), 'last week\'s cards', 'the file is untouched');
  t.equal(await s.lanyard.store.getCredential(s.class3b.pupils[0]!.id, 'emoji'), undefined, 'and nothing was issued');

  const forced = await issue(s, ['--class', 'class-3b', '--method', 'emoji', '--out', out, '--force']);
  t.equal(forced.code, 0, forced.stderr);
  t.match(readFileSync(out).subarray(0, 5).toString(), '%PDF-', '--force replaces it');
  t.equal(statSync(out).mode & 0o777, 0o600, 'with the owner-only mode');
  t.same(readdirSync(s.dir), ['cards.pdf'], 'and no partial file left');
});
