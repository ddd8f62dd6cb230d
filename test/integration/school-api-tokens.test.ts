import t, { type Test } from 'tap';
import { newPersonalToken } from '../../src/accounts/personal-tokens.js';
import { systemClock } from '../../src/clock.js';
import { authenticateStaffToken } from '../../src/school/api/staff-token.js';
import { freshTotpCode } from '../helpers/developer.js';
import type { HttpBrowser } from '../helpers/http-browser.js';
import { location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { auditEvents, consolePage, consolePost, consoleSignInAsStaff, consoleTotpSecret, grantRole, putConsoleSchool, putStaffUser } from '../helpers/school-console.js';

/**
 * Staff API tokens (docs/school-console.md → Signing in and your account): made on /school/account/tokens with
 * the password again (or a fresh code, with two-step sign-in on), shown once, hashed at rest, listed and
 * revoked; and the check /school/api builds on (src/school/api/staff-token.ts): a working token is its member
 * of staff, an expired, revoked or malformed one, or one of someone no longer staff, suspended or whose
 * password has changed since, is nobody. On SQLite and on Redis.
 */


const TOKEN = /lys_[0-9a-f]{16}_[A-Za-z0-9_-]{43}/;

async function scenario(t: Test, env: Record<string, string>) {
  const lanyard = await startLanyard(t, { env });
  const { url, store } = lanyard;
  const north = await putConsoleSchool(store, 'north');
  const TOKENS = `${url}/school/account/tokens`;
  const deps = { store, clock: systemClock, log: lanyard.app.log, audit: { record: () => {}, flush: async () => {} } };
  const who = async (token: string) => (await authenticateStaffToken(deps, `Bearer ${token}`))?.user.id;

  /** Makes a token on the page; the token shown, or the refusal's status. */
  async function make(browser: HttpBrowser, form: Record<string, string>): Promise<string | number> {
    const page = (await consolePage(browser, TOKENS)).html;
    const res = await consolePost(browser, TOKENS, page, { label: 'Nightly sync', expiresInDays: '30', ...form });
    if (res.status !== 303) return res.status;
    const shown = (await consolePage(browser, TOKENS)).html;
    return TOKEN.exec(shown)?.[0] ?? 0;
  }

  await t.test('a teacher makes a token with their password; it is shown once and works', async (t) => {
    const browser = await consoleSignInAsStaff(url, north.teacher.credentials);
    const page = (await consolePage(browser, TOKENS)).html;
    t.match(page, /name="confirm" type="password"/, 'the password is asked for');
    t.equal(await make(browser, { confirm: '' }), 400, 'not without it');
    t.equal(await make(browser, { confirm: 'not my password' }), 401, 'nor with a wrong one');
    t.equal(await make(browser, { confirm: north.teacher.credentials.password, label: '' }), 400, 'a label is needed');
    t.equal(await make(browser, { confirm: north.teacher.credentials.password, expiresInDays: '91' }), 400, 'at most 90 days');
    t.same(await store.listStaffApiTokens(north.teacher.user.id), [], 'nothing made');

    const token = await make(browser, { confirm: north.teacher.credentials.password });
    t.type(token, 'string');
    const made = token as string;
    t.notMatch((await consolePage(browser, TOKENS)).html, made, 'shown once');
    const [record] = await store.listStaffApiTokens(north.teacher.user.id);
    t.match(record, { label: 'Nightly sync', hint: made.slice(-4), userId: north.teacher.user.id });
    t.equal(Date.parse(record!.expiresAt) - Date.parse(record!.createdAt), 30 * 24 * 60 * 60 * 1000, '30 days');
    t.notMatch(JSON.stringify(record), made.split('_')[2]!, 'hashed at rest');
    t.equal(await who(made), north.teacher.user.id, 'it authenticates as the teacher');
    t.ok((await store.findStaffApiToken(record!.id))?.lastUsedAt, 'its use noted');
    for (const bad of [`Basic ${made}`, `Bearer ${made.slice(0, -1)}x`, 'Bearer lys_0000000000000000_' + 'A'.repeat(43), 'Bearer', '']) {
      t.equal(await authenticateStaffToken(deps, bad), undefined, `refused: ${bad.slice(0, 20)}`);
    }
    t.equal(await authenticateStaffToken(deps, undefined), undefined, 'no header');
    const created = await auditEvents(lanyard, north.organisation.id, 'api_token.created');
    t.match(created, [{ kind: 'credential', actorId: north.teacher.user.id, detail: { label: 'Nightly sync', hint: made.slice(-4) } }]);
    t.notMatch(JSON.stringify(created), made.split('_')[2]!, 'the audit trail holds no token');

    const list = (await consolePage(browser, TOKENS)).html;
    t.match(list, 'Nightly sync', 'listed');
    const revokePage = await consolePage(browser, `${TOKENS}/${record!.id}/revoke`);
    t.equal(revokePage.status, 200);
    const revoked = await consolePost(browser, `${TOKENS}/${record!.id}/revoke`, revokePage.html);
    t.equal(location(revoked, url).pathname, '/school/account/tokens');
    t.match((await consolePage(browser, TOKENS)).html, 'is revoked');
    t.equal(await who(made), undefined, 'a revoked token is nobody');
    t.match(await auditEvents(lanyard, north.organisation.id, 'api_token.revoked'), [{ actorId: north.teacher.user.id }]);
    t.equal((await consolePage(browser, `${TOKENS}/${record!.id}/revoke`)).status, 404, 'gone');
  });

  await t.test('with two-step sign-in on, a fresh code makes a token (not a recovery code, not the password)', async (t) => {
    const browser = await consoleSignInAsStaff(url, north.admin.credentials); // sets two-step sign-in up on the way
    const page = (await consolePage(browser, TOKENS)).html;
    t.match(page, /name="confirm" type="text"[^>]*inputmode="numeric"/, 'a code is asked for');
    t.equal(await make(browser, { confirm: north.admin.credentials.password }), 401, 'the password is not enough');
    const token = await make(browser, { confirm: await freshTotpCode(consoleTotpSecret(url, north.admin.credentials)!) });
    t.equal(await who(token as string), north.admin.user.id);
  });

  await t.test('a token of someone no longer staff, suspended, or whose password changed since, or an expired one, is nobody', async (t) => {
    const { user, credentials } = north.teacher;
    const put = async (o: { createdAt?: Date; days?: number; userId?: string } = {}) => {
      const at = o.createdAt ?? new Date();
      const made = newPersonalToken('lys_');
      await store.putStaffApiToken({
        id: made.id, userId: o.userId ?? user.id, hash: made.hash, label: 'x', hint: made.hint,
        createdAt: at.toISOString(), expiresAt: new Date(at.getTime() + (o.days ?? 30) * 86_400_000).toISOString(),
      });
      return made.token;
    };
    t.equal(await who(await put()), user.id, 'a working one');
    t.equal(await who(await put({ createdAt: new Date(Date.now() - 31 * 86_400_000) })), undefined, 'expired');
    t.equal(await who(await put({ createdAt: new Date(Date.now() - 91 * 86_400_000), days: 365 })), undefined, 'never past 90 days');

    const working = await put();
    await store.setSuspended(user.id, new Date().toISOString());
    t.equal(await who(working), undefined, 'suspended');
    await store.setSuspended(user.id, undefined);
    t.equal(await who(await put()), user.id, 'restored, a new one works');

    const before = await put();
    const browser = await consoleSignInAsStaff(url, credentials);
    const page = (await consolePage(browser, `${url}/school/account`)).html;
    const next = 'yet another teacher password';
    t.equal((await consolePost(browser, `${url}/school/account/password`, page, { currentPassword: credentials.password, newPassword: next, confirmPassword: next })).status, 303);
    credentials.password = next;
    t.equal(await who(before), undefined, 'made before the password changed');
    t.match((await consolePage(browser, TOKENS)).html, 'Expired', 'and shown as no longer working');

    const helper = await putStaffUser(store, north.organisation, 'north-helper', 'Hal', 'Helper');
    await grantRole(store, north.organisation.id, helper.user.id, 'teacher');
    const helpers = await put({ userId: helper.user.id });
    t.equal(await who(helpers), helper.user.id, 'staff by a role');
    await grantRole(store, north.organisation.id, helper.user.id, 'admin');
    t.equal(await who(helpers), undefined, 'a school admin without two-step sign-in');
    await store.deleteStaffGrant(north.organisation.id, helper.user.id, 'admin');
    await store.deleteStaffGrant(north.organisation.id, helper.user.id, 'teacher');
    t.equal(await who(helpers), undefined, 'no longer staff');
  });
}

t.test('on SQLite', async (t) => scenario(t, {}));

t.test('on Redis', async (t) => {
  const redis = await startRedis(t, { aof: false });
  await scenario(t, redisStoreEnv(redis.url, 'school-tokens'));
});
