import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { argon2Verify, hashCredential } from '../../src/accounts/credential-hasher.js';
import { labelPlacement } from '../../src/badges/label-layout.js';
import { cardAnatomy, cardSheet } from '../../src/cards/card-layout.js';
import { assertSession, signInAs } from '../helpers/account-session.js';
import { pdfText, run } from '../helpers/badge-pdf.js';
import { PUPIL_NAMES, putClass } from '../helpers/class-roster.js';
import { lanyard as runLanyard } from '../helpers/cli.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * `lanyard credentials issue` when the store refuses some of the writes (a real SQLite trigger, as a full
 * disk or a constraint would): the credentials stored are in force, so the PDF with their secrets is kept,
 * holding theirs only, and both lists are said; those refused keep what they had. When the store takes none,
 * nothing changed and no file is left.
 */

async function school(t: Test) {
  const lanyard = await startLanyard(t);
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-credentials-failure-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const org = (await lanyard.store.findOrganisation('demo-school'))!;
  // Ada Jones, Ben Li, Chloé Dubois, Łukasz Wróblewski, Zoë Ng: printed Dubois, Jones, Li, Ng, Wróblewski.
  const { pupils } = await putClass(lanyard.store, { organisationId: org.id, sourcedId: 'class-3b', title: 'Class 3B', pupils: PUPIL_NAMES.slice(0, 5), prefix: 'p3b-' });
  const refuse = (when: string) => {
    // A real refusal by the database, of some credential writes only (an upsert: before insert, and before update).
    const db = new Database(join(lanyard.dir, 'lanyard.db'));
    for (const event of ['INSERT', 'UPDATE']) {
      db.exec(`CREATE TRIGGER refuse_${event.toLowerCase()} BEFORE ${event} ON credentials WHEN ${when} BEGIN SELECT RAISE(ABORT, 'credential write refused'); END;`);
    }
    db.close();
  };
  const issue = (args: string[]) =>
    runLanyard(['credentials', 'issue', '--org', 'demo-school', '--class', 'class-3b', ...args], { LANYARD_STORE: `sqlite:${join(lanyard.dir, 'lanyard.db')}` });
  return { lanyard, dir, pupils, refuse, issue };
}

/** The usernames on the emoji cards of the PDF, in order, and each card's pictures. */
async function cards(pdf: string) {
  const pages = Number(/^Pages:\s+(\d+)$/m.exec((await run('pdfinfo', [pdf])).stdout)?.[1]);
  const sheet = cardSheet('letter');
  const textIn = pdfText(pdf); // each page read once
  const found: { username: string; pictures: string[] }[] = [];
  for (let index = 0; index < pages * 8; index++) {
    const { page, cell } = labelPlacement(sheet, index);
    const username = /Username: (\S+)/.exec(await textIn(page, cell))?.[1];
    if (!username) break;
    found.push({ username, pictures: await Promise.all(cardAnatomy(cell).pictures.map(async (slot) => (await textIn(page, slot.label)).trim())) });
  }
  return found;
}

t.test('the store refuses one pupil\'s write: the others are issued, the PDF is kept with theirs only, both lists said, exit 1', async (t) => {
  const s = await school(t);
  const [ada, ben] = s.pupils;
  const bens = await hashCredential('dog,dog,dog,dog,dog,dog');
  await s.lanyard.store.setCredential(ben!.id, 'emoji', bens);
  const bensSession = await signInAs(s.lanyard.url, { emoji: Array(6).fill('dog'), username: ben!.username });
  s.refuse(`NEW.user_id = '${ben!.id}'`);
  const out = join(s.dir, 'cards.pdf');

  const result = await s.issue(['--method', 'emoji', '--out', out]);
  t.equal(result.code, 1, 'the command fails');
  const issued = s.pupils.filter((p) => p !== ben);
  t.match(result.stdout, `emoji passwords issued to 4 of 5 user(s) of Class 3B at Demo School: ${['p3b-3', 'p3b-1', 'p3b-5', 'p3b-4'].join(', ')}`, 'who was issued, in print order');
  t.match(result.stdout, /emoji cards for those 4 written to .*cards\.pdf \(readable by you only\)/);
  t.match(result.stderr, `not issued to 1 user(s), whose emoji passwords are as they were: ${ben!.username} (credential write refused)`);
  t.match(result.stderr, /lanyard: 1 of 5 credentials could not be stored \(named above\)/);

  t.ok(existsSync(out), 'the PDF is kept: the secrets of those issued are nowhere else');
  t.equal(statSync(out).mode & 0o777, 0o600, 'readable by its owner only');
  t.same(readdirSync(s.dir), ['cards.pdf'], 'and nothing else is left beside it');
  const printed = await cards(out);
  t.same(printed.map((c) => c.username).sort(), issued.map((p) => p.username).sort(), 'it holds exactly those whose credential changed');
  for (const card of printed) {
    const pupil = s.pupils.find((p) => p.username === card.username)!;
    t.ok(await argon2Verify((await s.lanyard.store.getCredential(pupil.id, 'emoji'))!, card.pictures.join(',')), `${card.username}'s card is their stored emoji password`);
  }
  t.equal(await s.lanyard.store.getCredential(ben!.id, 'emoji'), bens, 'Ben\'s emoji password is as it was');
  await assertSession(t, bensSession, s.lanyard.url, true, 'and his session goes on');
  t.ok(await s.lanyard.store.getCredential(ada!.id, 'emoji'), 'Ada, issued, has one');
});

t.test('the store refuses every write: nothing issued, no file, exit 1', async (t) => {
  const s = await school(t);
  s.refuse('1');
  const out = join(s.dir, 'cards.pdf');
  const result = await s.issue(['--method', 'password', '--out', out]);
  t.equal(result.code, 1);
  t.match(result.stderr, /lanyard: the credentials could not be stored \(credential write refused\): nothing was issued, every credential is as it was, and no file was written/);
  t.same(readdirSync(s.dir), [], 'no file, and no partial one');
  for (const pupil of s.pupils) t.equal(await s.lanyard.store.getCredential(pupil.id, 'password'), undefined, `${pupil.username} has none`);
});
