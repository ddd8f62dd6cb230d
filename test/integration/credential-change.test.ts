import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { withStore } from '../../adapters/open-store.js';
import { importOrganisations } from '../../src/roster/importer.js';
import { issueEmojiPasswordCommand } from '../../src/cli/run-users.js';
import { printBadgesCommand, revokeBadgesCommand } from '../../src/cli/run-badges.js';
import { systemClock } from '../../src/clock.js';
import type { OrganisationSeed } from '../../src/config/schema.js';
import { assertSession, BADGE_WAY, EMOJI_WAY, refusedSignIn, signInAs } from '../helpers/account-session.js';
import { demoConfig, writeConfig } from '../helpers/config-file.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { PUPIL, TEACHER } from '../helpers/sign-in.js';

/**
 * Changing a credential ends what it protected (docs/configuration.md → Adding clients and users): a password reset by `lanyard import`, an emoji
 * password issued again, a badge printed again or revoked — each on the store a running Lanyard uses, the
 * way the command does it — ends the user's Lanyard session and revokes their grants at once: the refresh
 * token answers invalid_grant, the access token invalid_token, prompt=none login_required. The same
 * credential imported again signs nobody out.
 */

/** `lanyard import FILE`, as the command runs it (mode 'command'), against the running Lanyard's store. */
async function lanyardImport(lanyard: Lanyard, edit: (orgs: OrganisationSeed[]) => void) {
  const organisations = demoConfig().organisations!;
  edit(organisations);
  return withStore(lanyard.config.storeUrl, systemClock, (store) => importOrganisations(store, organisations, 'command'), {
    redisPrefix: lanyard.config.redisPrefix,
  });
}

const setPassword = (username: string, password: string) => (orgs: OrganisationSeed[]) => {
  orgs[0]!.users!.find((u) => u.username === username)!.password = password;
};

async function passwordReset(t: Test, lanyard: Lanyard) {
  const issuer = lanyard.url;
  const teacher = await signInAs(issuer, { password: TEACHER });
  const pupil = await signInAs(issuer, { password: PUPIL });
  await assertSession(t, teacher, issuer, true, 'before the reset');

  const summary = await lanyardImport(lanyard, setPassword('teacher', 'a-new-teacher-pass'));
  t.equal(summary.passwordsSet, 1, 'the import set one password');
  await assertSession(t, teacher, issuer, false, 'after `lanyard import` with a new password');
  await assertSession(t, pupil, issuer, true, 'another user');

  const old = await refusedSignIn(issuer, { password: TEACHER });
  t.equal(old.status, 401, 'the old password no longer signs in');
  const again = await signInAs(issuer, { password: { ...TEACHER, password: 'a-new-teacher-pass' } }, teacher.browser);
  t.equal(again.claims.sub, teacher.claims.sub, 'the new password signs the same user in, in the same browser');
  await assertSession(t, again, issuer, true, 'the new sign-in');
}

t.test('a password reset with `lanyard import` ends the session, the refresh token and the access token', async (t) => {
  await passwordReset(t, await startLanyard(t));
});

t.test('the same, on a Redis store', async (t) => {
  const redis = await startRedis(t, { aof: false });
  await passwordReset(t, await startLanyard(t, {
    env: redisStoreEnv(redis.url, 'reset'),
  }));
});

t.test('importing the same password again signs nobody out', async (t) => {
  const lanyard = await startLanyard(t);
  const teacher = await signInAs(lanyard.url, { password: TEACHER });
  const summary = await lanyardImport(lanyard, () => {});
  t.equal(summary.passwordsSet, 0, 'nothing to set: the plaintext verifies against the stored hash');
  await assertSession(t, teacher, lanyard.url, true, 'after importing the same file');
  const stored = (await lanyard.store.findUserByUsername((await lanyard.store.findOrganisation('demo-school'))!.id, 'teacher'))!;
  t.equal(stored.sessionsValidAfter, undefined, 'no sessions were ended');
});

t.test('a changed password in the configuration file ends the sessions at the next start', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-restart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = await startLanyard(t, { dir });
  const port = Number(new URL(first.url).port);
  const teacher = await signInAs(first.url, { password: TEACHER });
  const pupil = await signInAs(first.url, { password: PUPIL });
  await first.stop();

  const config = writeConfig((c) => setPassword('teacher', 'changed-in-the-file')(c.organisations!));
  const second = await startLanyard(t, { dir, port, env: { LANYARD_CONFIG: config } });
  await assertSession(t, teacher, second.url, false, 'after a restart with a new password in the file');
  await assertSession(t, pupil, second.url, true, 'a user whose password did not change');
});

t.test('`lanyard users emoji` (a reset) ends the emoji-kid\'s session and tokens', async (t) => {
  const lanyard = await startLanyard(t);
  const kid = await signInAs(lanyard.url, EMOJI_WAY);
  const teacher = await signInAs(lanyard.url, { password: TEACHER });
  await assertSession(t, kid, lanyard.url, true, 'before the reset');
  const lines: string[] = [];
  await issueEmojiPasswordCommand(lanyard.config, systemClock, 'demo-school', 'emoji-kid', { out: (l) => lines.push(l), err: () => {} });
  t.match(lines.join('\n'), /signed out of Lanyard everywhere/, 'the command says so');
  await assertSession(t, kid, lanyard.url, false, 'after `users emoji`');
  await assertSession(t, teacher, lanyard.url, true, 'another user');
  t.equal((await refusedSignIn(lanyard.url, EMOJI_WAY)).status, 401, 'the old emoji password no longer signs in');
});

t.test('`lanyard badges print` (a new badge) and `badges revoke` end the badge holder\'s session and tokens', async (t) => {
  const lanyard = await startLanyard(t);
  const out = mkdtempSync(join(tmpdir(), 'lanyard-sheet-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const kid = await signInAs(lanyard.url, BADGE_WAY);
  const teacher = await signInAs(lanyard.url, { password: TEACHER });
  await assertSession(t, kid, lanyard.url, true, 'before the reprint');
  await printBadgesCommand(lanyard.config, systemClock, { slug: 'demo-school', usernames: ['badge-kid'], paper: 'a4', out: join(out, 'sheet.pdf') });
  await assertSession(t, kid, lanyard.url, false, 'after `badges print` issued a new badge');
  await assertSession(t, teacher, lanyard.url, true, 'a user whose badge was not printed');
  t.equal((await refusedSignIn(lanyard.url, BADGE_WAY)).status, 401, 'the old badge no longer signs in');

  // A badge of the teacher's own, then revoked: revoking ends the session too.
  await printBadgesCommand(lanyard.config, systemClock, { slug: 'demo-school', usernames: ['teacher'], paper: 'a4', out: join(out, 'teacher.pdf') });
  await assertSession(t, teacher, lanyard.url, true, 'a first badge ends nothing');
  await revokeBadgesCommand(lanyard.config, systemClock, 'demo-school', 'teacher');
  await assertSession(t, teacher, lanyard.url, false, 'after `badges revoke`');
});

t.test('a badge re-imported with the same code, or an emoji password with the same pictures, signs nobody out', async (t) => {
  const lanyard = await startLanyard(t);
  const kid = await signInAs(lanyard.url, BADGE_WAY);
  const emoji = await signInAs(lanyard.url, EMOJI_WAY);
  const summary = await lanyardImport(lanyard, () => {});
  t.same([summary.badgesSet, summary.emojiPasswordsSet], [0, 0], 'nothing changed');
  await assertSession(t, kid, lanyard.url, true, 'the badge holder');
  await assertSession(t, emoji, lanyard.url, true, 'the emoji-kid');
});
