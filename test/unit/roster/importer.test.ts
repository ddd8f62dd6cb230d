import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import argon2 from 'argon2';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { hashCredential } from '../../../src/accounts/credential-hasher.js';
import { isUserId, newId } from '../../../adapters/store/ids.js';
import { importOrganisations } from '../../../src/roster/importer.js';
import { badgeCodeHash } from '../../../src/formats/badge-code.js';
import { Limiter } from '../../../src/accounts/limiter.js';
import { checkPassword } from '../../../src/accounts/password-login.js';
import { ManualClock } from '../../../src/clock.js';
import type { OrganisationSeed } from '../../../src/config/schema.js';

function tempStore(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-accounts-'));
  const store = openSqliteStore(join(dir, 'lanyard.db'), new ManualClock());
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

/** argon2id with OWASP's parameters, in whatever order the library writes them. */
function assertOwaspArgon2id(t: Test, hash: string, what: string) {
  const m = /^\$argon2id\$v=19\$([^$]+)\$[^$]+\$[^$]+$/.exec(hash);
  t.ok(m, `${what}: an argon2id hash`);
  t.same(m?.[1]?.split(',').sort(), ['m=19456', 'p=1', 't=2'], `${what}: m=19456, t=2, p=1`);
}

/** `annEmail` null: left out of Ann's record, unless `annEmailNull` says to give it as null. */
const seeds = ({ annPassword = 'ann-password-1', annEmail = 'ann@north.example' as string | null, annEmailNull = false } = {}): OrganisationSeed[] => [
  {
    slug: 'north',
    name: 'North School',
    users: [
      { username: 'ann', given_name: 'Ann', family_name: 'Able', type: 'student', password: annPassword,
        ...(annEmail ? { email: annEmail } : annEmailNull ? { email: null } : {}) },
      { username: 'cat', given_name: 'Cat', family_name: 'Cole', type: 'employee' },
    ],
  },
  { slug: 'south', name: 'South School', users: [{ username: 'ann', given_name: 'Ann', family_name: 'South', type: 'admin' }] },
];

t.test('importer: creates, then updates in place with stable ids; passwords hashed once', async (t) => {
  const store = tempStore(t);
  const first = await importOrganisations(store, seeds(), 'startup');
  t.same(first, { organisations: 2, users: 3, passwordsSet: 1, emojiPasswordsSet: 0, badgesSet: 0 }, 'summary of the first import');

  const north = (await store.findOrganisation('north'))!;
  const south = (await store.findOrganisation('south'))!;
  const ann = (await store.findUserByUsername(north.id, 'ann'))!;
  const cat = (await store.findUserByUsername(north.id, 'cat'))!;
  t.ok(isUserId(ann.id), 'user ids are a letter and 15 digits');
  t.same(
    { ...ann, id: undefined },
    { id: undefined, organisationId: north.id, username: 'ann', givenName: 'Ann', familyName: 'Able', type: 'student',
      email: 'ann@north.example', googleEmail: undefined, microsoftEmail: undefined, rosterId: undefined },
    'fields imported',
  );
  t.not((await store.findUserByUsername(south.id, 'ann'))?.id, ann.id, 'same username in another organisation: another user');

  const hash = (await store.getCredential(ann.id, 'password'))!;
  assertOwaspArgon2id(t, hash, 'plaintext password stored hashed');
  t.notMatch(hash, /ann-password-1/, 'not in plaintext');
  t.ok(await argon2.verify(hash, 'ann-password-1'), 'the hash is of the given password');
  t.equal(await store.getCredential(cat.id, 'password'), undefined, 'no password given: none stored');

  const second = await importOrganisations(store, seeds(), 'startup');
  t.equal(second.passwordsSet, 0, 'same password again: nothing re-hashed');
  t.equal(await store.getCredential(ann.id, 'password'), hash, 'the stored hash is unchanged (no fresh salt)');
  t.equal((await store.findOrganisation('north'))?.id, north.id, 'organisation id stable across imports');
  t.equal((await store.findUserByUsername(north.id, 'ann'))?.id, ann.id, 'user id stable across imports');
  t.equal((await store.searchOrganisations('school', 10)).length, 2, 'no duplicate organisations');

  const third = await importOrganisations(store, seeds({ annPassword: 'ann-password-2', annEmail: null }), 'startup');
  t.equal(third.passwordsSet, 1, 'a changed password is set');
  const rehashed = (await store.getCredential(ann.id, 'password'))!;
  t.not(rehashed, hash, 'new hash');
  assertOwaspArgon2id(t, rehashed, 'the changed password');
  t.ok(await argon2.verify(rehashed, 'ann-password-2'), 'the new password verifies');
  t.notOk(await argon2.verify(rehashed, 'ann-password-1'), 'the old one no longer does');
  const annAfter = await store.findUser(ann.id);
  t.equal(annAfter?.email, 'ann@north.example', 'a field left out of the seed keeps its stored value');
  t.equal(annAfter?.id, ann.id, 'and the id is still the same');

  await importOrganisations(store, seeds({ annEmail: null, annEmailNull: true }), 'startup');
  t.equal((await store.findUser(ann.id))?.email, undefined, 'a field given as null is cleared');
});

t.test('importer: a school’s language and class sign-in setting become its sign-in settings; left out, neither is stored', async (t) => {
  const store = tempStore(t);
  const school = (extra: Partial<OrganisationSeed>): OrganisationSeed[] => [{ slug: 'west', name: 'West School', users: [], ...extra }];
  await importOrganisations(store, school({ language: 'fr', class_sign_in: { surname_initial: true } }), 'startup');
  t.same((await store.findOrganisation('west'))!.login,
    { methods: ['emoji', 'badge', 'password'], badgeRequiresEmoji: false, language: 'fr', tilesShowSurnameInitial: true });
  await importOrganisations(store, school({}), 'startup');
  t.same((await store.findOrganisation('west'))!.login, { methods: ['emoji', 'badge', 'password'], badgeRequiresEmoji: false },
    'taken out of the file: the browser’s language again, first names alone');
});

t.test('importer: password_hash is stored exactly as given', async (t) => {
  const store = tempStore(t);
  const given = await hashCredential('bob-password');
  await importOrganisations(store, [
    { slug: 'north', name: 'North', users: [{ username: 'bob', given_name: 'B', family_name: 'B', type: 'student', password_hash: given }] },
  ], 'command');
  const north = (await store.findOrganisation('north'))!;
  const bob = (await store.findUserByUsername(north.id, 'bob'))!;
  t.equal(await store.getCredential(bob.id, 'password'), given, 'stored verbatim');
  t.ok(await checkPassword(store, north, 'bob', 'bob-password'), 'and usable for login');
});

t.test('importer at startup: a credential changed since with the CLI survives a restart; a changed file still wins', async (t) => {
  const store = tempStore(t);
  const fromFile = await hashCredential('from-the-file');
  const file = (password_hash: string): OrganisationSeed[] => [{
    slug: 'north', name: 'North',
    users: [{ username: 'dee', given_name: 'D', family_name: 'D', type: 'student', password_hash, emoji_password: 'dog,apple,rocket,star,cat,pizza', badge_code: 'DDDD-DDDD-DDDD-DDDD-DDDD-DDDD-DD' }],
  }];
  await importOrganisations(store, file(fromFile), 'startup');
  const north = (await store.findOrganisation('north'))!;
  const dee = (await store.findUserByUsername(north.id, 'dee'))!;
  t.equal(await store.getCredential(dee.id, 'password'), fromFile, 'first start: the file\'s password');
  const fileEmoji = await store.getCredential(dee.id, 'emoji');
  t.ok(fileEmoji, 'and its emoji password');
  t.equal((await store.findBadge(badgeCodeHash('DDDDDDDDDDDDDDDDDDDDDDDDDD')))?.userId, dee.id, 'and its badge');

  // What an operator does afterwards with the CLI: a new password and emoji password, the badge revoked.
  const reset = await hashCredential('reset-by-the-cli');
  const resetEmoji = await hashCredential('cat,cat,cat,dog,dog,dog');
  await store.setCredential(dee.id, 'password', reset);
  await store.setCredential(dee.id, 'emoji', resetEmoji);
  t.equal(await store.revokeBadges({ userId: dee.id }), 1, 'badge revoked');

  const restart = await importOrganisations(store, file(fromFile), 'startup');
  t.same([restart.passwordsSet, restart.emojiPasswordsSet, restart.badgesSet], [0, 0, 0], 'restart with the same file: nothing applied');
  t.equal(await store.getCredential(dee.id, 'password'), reset, 'the reset password survives the restart');
  t.equal(await store.getCredential(dee.id, 'emoji'), resetEmoji, 'the reissued emoji password too');
  t.equal(await store.findBadge(badgeCodeHash('DDDDDDDDDDDDDDDDDDDDDDDDDD')), undefined, 'the revoked badge stays revoked');

  const edited = await hashCredential('edited-in-the-file');
  t.equal((await importOrganisations(store, file(edited), 'startup')).passwordsSet, 1, 'the file changed: applied');
  t.equal(await store.getCredential(dee.id, 'password'), edited, 'the edited file wins');

  await store.setCredential(dee.id, 'password', reset);
  t.equal((await importOrganisations(store, file(edited), 'command')).passwordsSet, 1, '`lanyard import` applies it again');
  t.equal(await store.getCredential(dee.id, 'password'), edited);
});

t.test('checkPassword: only the right password of an existing user in that organisation', async (t) => {
  const store = tempStore(t);
  await importOrganisations(store, seeds(), 'startup');
  const north = (await store.findOrganisation('north'))!;
  const south = (await store.findOrganisation('south'))!;
  const ann = await store.findUserByUsername(north.id, 'ann');

  t.same(await checkPassword(store, north, 'ann', 'ann-password-1'), ann, 'right password: the user');
  t.equal((await checkPassword(store, north, 'ANN', 'ann-password-1'))?.id, ann?.id, 'username in another case');
  t.equal((await checkPassword(store, north, '  ann ', 'ann-password-1'))?.id, ann?.id, 'username with spaces around');
  t.equal(await checkPassword(store, north, 'ann', 'ann-password-2'), undefined, 'wrong password');
  t.equal(await checkPassword(store, north, 'ann', 'ANN-PASSWORD-1'), undefined, 'the password is case-sensitive');
  t.equal(await checkPassword(store, north, 'ann', ' ann-password-1'), undefined, 'the password is not trimmed');
  t.equal(await checkPassword(store, north, 'ann', ''), undefined, 'empty password');
  t.equal(await checkPassword(store, north, 'nobody', 'ann-password-1'), undefined, 'unknown user');
  t.equal(await checkPassword(store, north, '', 'ann-password-1'), undefined, 'empty username');
  t.equal(await checkPassword(store, north, 'cat', ''), undefined, 'user without a password, empty password');
  t.equal(await checkPassword(store, north, 'cat', 'anything'), undefined, 'user without a password');
  t.equal(await checkPassword(store, south, 'ann', 'ann-password-1'), undefined, 'another organisation\'s ann');
});

t.test('Limiter: never more than max tasks at once; all run, results and errors pass through', async (t) => {
  const limiter = new Limiter(3);
  let running = 0;
  let peak = 0;
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      limiter.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, (i * 7) % 5));
        running -= 1;
        return i;
      })),
  );
  t.equal(peak, 3, 'at most 3 at once, and the limit is used');
  t.same(results, Array.from({ length: 20 }, (_, i) => i), 'every task ran, each result to its caller');

  const single = new Limiter(1);
  await t.rejects(single.run(async () => { throw new Error('boom'); }), /boom/, 'a failing task rejects its caller');
  t.equal(await single.run(async () => 'next'), 'next', 'and frees its slot');
});

t.test('Limiter: a task arriving while a slot is handed over does not overshoot max', async (t) => {
  // Task A runs, B waits. A finishes; if C arrives after A's slot is freed but before B's continuation has
  // run, and the slot is not handed straight to B, B and C run at the same time. The exact microtask at
  // which C must arrive depends on how many ticks the implementation takes, so try a range of them.
  const peaks: number[] = [];
  for (let depth = 0; depth < 10; depth += 1) {
    const limiter = new Limiter(1);
    let running = 0;
    let peak = 0;
    const task = (hold: Promise<void>) => async () => {
      running += 1;
      peak = Math.max(peak, running);
      await hold;
      running -= 1;
    };
    const later = () => new Promise<void>((r) => setTimeout(r, 2));
    let releaseA!: () => void;
    const a = limiter.run(task(new Promise<void>((r) => { releaseA = r; })));
    const b = limiter.run(task(later()));
    let c: Promise<void> | undefined;
    const startC = (n: number): void => {
      if (n === 0) c = limiter.run(task(later()));
      else queueMicrotask(() => startC(n - 1));
    };
    releaseA();
    startC(depth);
    await Promise.all([a, b]);
    await c;
    peaks.push(peak);
  }
  t.same(peaks, peaks.map(() => 1), 'never two at once with max = 1, whatever the timing');
});

t.test('newId: a letter and 15 digits, no leading zero, unique', async (t) => {
  const ids = Array.from({ length: 500 }, () => newId('u'));
  t.ok(ids.every((id) => /^u\d{15}$/.test(id)), 'u + 15 digits');
  t.ok(ids.every((id) => /^u[1-9]/.test(id)), 'no leading zero (stable as a number too)');
  t.equal(new Set(ids).size, ids.length, 'no collision in 500');
  t.ok(ids.every(isUserId), 'isUserId accepts them');
  t.match(newId('o'), /^o[1-9]\d{14}$/, 'organisation ids: o + 15 digits');
  t.notOk(isUserId(newId('o')), 'an organisation id is not a user id');
  t.notOk(isUserId('u12345'), 'too short');
  t.notOk(isUserId('u1234567890123456'), 'too long');
  t.notOk(isUserId('U123456789012345'), 'capital letter');
});
