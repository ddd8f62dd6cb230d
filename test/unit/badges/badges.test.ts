import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import type { Store } from '../../../adapters/store.js';
import { badgeCodeHash, normalizeBadgeCode } from '../../../src/formats/badge-code.js';
import { findBadgeHolder, issueBadge } from '../../../src/badges/badges.js';
import { ManualClock } from '../../../src/clock.js';

/** A real SQLite store with two schools: North (ann, ben) and South (cat). */
async function schools(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-badges-'));
  const dbPath = join(dir, 'lanyard.db');
  const store: Store = openSqliteStore(dbPath, new ManualClock());
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const north = await store.upsertOrganisation({ slug: 'north', name: 'North School' });
  const south = await store.upsertOrganisation({ slug: 'south', name: 'South School' });
  const user = (organisationId: string, username: string) =>
    store.upsertUser({ organisationId, username, givenName: username, familyName: 'Test', type: 'student' });
  return { store, dbPath, north, south, ann: await user(north.id, 'ann'), ben: await user(north.id, 'ben'), cat: await user(south.id, 'cat') };
}

t.test('issueBadge: a printable code and QR payload that find the holder, in every written form', async (t) => {
  const { store, north, ann } = await schools(t);
  const badge = await issueBadge(store, ann);
  t.equal(badge.user.id, ann.id);
  t.match(badge.code, /^([0-9A-HJKMNP-TV-Z]{4}-){6}[0-9A-HJKMNP-TV-Z]{2}$/, 'printed in groups of four');
  t.equal(badge.qrPayload, `LB1:${badge.code.replaceAll('-', '')}`, 'the QR code carries the bare code, prefixed');

  const spaced = badge.code.toLowerCase().replaceAll('-', ' ');
  for (const [what, input] of [['typed as printed', badge.code], ['scanned', badge.qrPayload], ['lowercase with spaces', spaced],
    ['without separators', badge.code.replaceAll('-', '')], ['with whitespace around', `  ${badge.code}\n`]] as const) {
    t.equal((await findBadgeHolder(store, north, input))?.id, ann.id, `${what}: ann`);
  }
});

t.test('only the hash is stored', async (t) => {
  const { store, dbPath, ann } = await schools(t);
  const badge = await issueBadge(store, ann);
  const bare = normalizeBadgeCode(badge.code)!;
  t.same(await store.findBadge(badgeCodeHash(bare)), { userId: ann.id, organisationId: ann.organisationId }, 'found by the hash');
  const files = [dbPath, `${dbPath}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1'));
  t.ok(files.join('').includes(badgeCodeHash(bare)), 'the hash is in the database files');
  t.notOk(files.some((f) => f.includes(bare) || f.includes(badge.code)), 'the code is not');
});

t.test('a new badge voids the previous one; other users keep theirs', async (t) => {
  const { store, north, ann, ben } = await schools(t);
  const first = await issueBadge(store, ann);
  const bens = await issueBadge(store, ben);
  const second = await issueBadge(store, ann);
  t.not(second.code, first.code, 'a new code');
  t.equal(await findBadgeHolder(store, north, first.code), undefined, 'the first badge no longer works');
  t.equal(await findBadgeHolder(store, north, first.qrPayload), undefined, 'scanned neither');
  t.equal((await findBadgeHolder(store, north, second.qrPayload))?.id, ann.id, 'the new one does');
  t.equal((await findBadgeHolder(store, north, bens.qrPayload))?.id, ben.id, "ben's badge is untouched");
});

t.test('refused: another organisation\'s badge, revoked badges, garbage', async (t) => {
  const { store, north, south, ann, ben, cat } = await schools(t);
  const cats = await issueBadge(store, cat);
  t.equal(await findBadgeHolder(store, north, cats.qrPayload), undefined, "South's badge at North: refused");
  t.equal((await findBadgeHolder(store, south, cats.qrPayload))?.id, cat.id, 'at South: cat');

  const anns = await issueBadge(store, ann);
  const bens = await issueBadge(store, ben);
  t.equal(await store.revokeBadges({ userId: ann.id }), 1, "revoking ann's badge: 1");
  t.equal(await findBadgeHolder(store, north, anns.qrPayload), undefined, "ann's badge is refused");
  t.equal((await findBadgeHolder(store, north, bens.qrPayload))?.id, ben.id, "ben's still works");
  t.equal(await store.revokeBadges({ userId: ann.id }), 0, 'revoking again: 0');

  const anns2 = await issueBadge(store, ann);
  t.equal(await store.revokeBadges({ organisationId: north.id }), 2, "revoking North's: ann's and ben's");
  t.equal(await findBadgeHolder(store, north, anns2.code), undefined, "ann's new badge is refused");
  t.equal(await findBadgeHolder(store, north, bens.code), undefined, "ben's badge is refused");
  t.equal((await findBadgeHolder(store, south, cats.code))?.id, cat.id, "South's badge still works");

  const valid = normalizeBadgeCode(cats.code)!;
  const neighbour = valid.slice(0, 25) + (valid[25] === '0' ? '1' : '0');
  for (const [what, input] of [
    ['empty', ''], ['words', 'hello'], ['the prefix alone', 'LB1:'], ['a URL', 'https://example.com/badge'],
    ['one character short', valid.slice(0, 25)], ['another prefix', `LB2:${valid}`], ['a well-formed code nobody holds', neighbour],
    ['SQL', "' OR 1=1 --"],
  ] as const) {
    t.equal(await findBadgeHolder(store, south, input), undefined, `${what}: refused`);
  }
});
