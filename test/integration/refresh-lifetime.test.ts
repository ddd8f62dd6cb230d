import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { TTL } from '../../src/provider/ttl.js';
import { startLanyard } from '../helpers/lanyard.js';
import { demoBasic, issueTokens } from '../helpers/tokens.js';

/**
 * How long refresh tokens work (docs/integrating-an-app.md → Integrating an app → Refresh): each refresh returns a new one, but
 * none works beyond 30 days after the sign-in that started it; refreshing does not extend that. Time is
 * moved on the clock the store keeps expiry by.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

async function refresh(base: string, refreshToken: string) {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { authorization: demoBasic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

t.test('refresh tokens work for 30 days from the sign-in, however often they are used', async (t) => {
  t.equal(TTL.Grant, 30 * DAY_MS / 1000, "a sign-in's grant lasts 30 days");
  t.equal(TTL.RefreshToken, TTL.Grant, 'and so does an unused refresh token');
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock });
  const first = (await issueTokens(lanyard.url)).refresh_token!;

  clock.advance(20 * DAY_MS);
  const day20 = await refresh(lanyard.url, first);
  t.equal(day20.status, 200, 'day 20: refreshed');
  t.ok(day20.body.refresh_token && day20.body.refresh_token !== first, 'with a new refresh token');

  clock.advance(9 * DAY_MS);
  const day29 = await refresh(lanyard.url, day20.body.refresh_token!);
  t.equal(day29.status, 200, 'day 29: refreshed again');

  clock.advance(2 * DAY_MS);
  const day31 = await refresh(lanyard.url, day29.body.refresh_token!);
  t.equal(day31.status, 400, 'day 31: the refresh token issued two days ago no longer works');
  t.equal(day31.body.error, 'invalid_grant', 'invalid_grant: the user signs in again');
});

t.test('an unused refresh token lapses after 30 days', async (t) => {
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock });
  const token = (await issueTokens(lanyard.url)).refresh_token!;
  clock.advance(30 * DAY_MS + 60_000);
  const late = await refresh(lanyard.url, token);
  t.equal(late.status, 400, '30 days and a minute later: refused');
  t.equal(late.body.error, 'invalid_grant');
});
