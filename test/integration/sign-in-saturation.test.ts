import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import tap from 'tap';
import { localHasher, SIGN_IN_MAX_WAIT_MS, useCredentialHasher } from '../../src/accounts/credential-hasher.js';
import { Limiter } from '../../src/accounts/limiter.js';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import { argon2Slots } from '../../src/process/sizing.js';
import { loadConfig } from '../../src/config/config.js';
import { openServices } from '../../src/startup/services.js';
import { EMOJI_KID, HttpBrowser, openMethod, postEmoji } from '../helpers/children.js';
import { createDeveloper, formCsrf, signInDeveloper } from '../helpers/developer.js';
import { freePort, startLanyard } from '../helpers/lanyard.js';
import { pooledKeyPair } from '../helpers/test-keys.js';

/** The machine's slots replaced by one whose newcomer would wait longer than SIGN_IN_MAX_WAIT_MS; `free()` ends the rush. */
async function saturate(t: { teardown(fn: () => unknown): void }) {
  const slots = new Limiter(1);
  useCredentialHasher(localHasher(slots));
  t.teardown(() => useCredentialHasher(localHasher(new Limiter(argon2Slots()))));
  const learned = await slots.acquire();
  await sleep(1_200);
  learned(); // the slots now expect each hash to take about 1.2 s
  const held = await slots.acquire();
  const queued = Array.from({ length: 10 }, () => slots.acquire());
  return {
    slots,
    free: async () => {
      held();
      for (const waiter of queued) (await waiter)();
    },
  };
}

/**
 * Above saturation a sign-in is turned away at once with 503 and Retry-After (docs/performance.md: the morning peak
 * never queues a pupil for ever), with the form to try again and nothing counted against the pupil.
 * The machine's argon2 slots are filled by hand: one held, ten waiting, each known to take 1.2 s.
 */
tap.test('a sign-in that would wait too long for argon2 is told when to come back', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-saturation-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const config = loadConfig({ PORT: String(port), LANYARD_ISSUER: issuer, LANYARD_STORE: `sqlite:${join(dir, 'lanyard.db')}` });
  const services = await openServices(config, systemClock, pooledKeyPair);
  const lines: string[] = [];
  const logStream = new Writable({ write: (chunk: Buffer, _encoding, done) => { lines.push(...chunk.toString().split('\n').filter(Boolean)); done(); } });
  const app = await buildApp({ config, clock: systemClock, ...services, logStream });
  await app.listen({ port, host: '127.0.0.1' });
  t.teardown(async () => {
    await app.close();
    await services.store.close();
  });

  const { slots, free } = await saturate(t);
  t.ok(slots.expectedWaitMs() > SIGN_IN_MAX_WAIT_MS, `a newcomer would wait ${slots.expectedWaitMs().toFixed(0)} ms`);

  const tablet = new HttpBrowser();
  const step = await openMethod(tablet, issuer, 'emoji');
  const refused = await postEmoji(tablet, issuer, step, EMOJI_KID.username, EMOJI_KID.emoji);
  t.equal(refused.status, 503, '503: the service is saturated, not failing');
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.ok(retryAfter >= 11 && retryAfter <= 15, `Retry-After: ${retryAfter} s (the expected wait, rounded up)`);
  const page = await refused.text();
  t.match(page, new RegExp(`role="alert"[^>]*>Lots of people are signing in right now\\. Please wait <span[^>]*>${retryAfter} seconds</span>, then try again\\.`), 'the pupil is told how long to wait, in words');
  t.match(page, /name="csrf"/, 'on the form, to try again');
  const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === 'login.busy');
  t.match(line, { event: 'login.busy', method: 'emoji', res: { statusCode: 503 }, retryAfter }, 'the request’s one log line says why');
  t.equal(slots.waiting, 10, 'the refused sign-in never joined the queue');

  await free();
  const again = await openMethod(tablet, issuer, 'emoji');
  const signedIn = await postEmoji(tablet, issuer, again, EMOJI_KID.username, EMOJI_KID.emoji);
  t.equal(signedIn.status, 303, 'once the rush is over the same pupil signs in');
  t.notOk(lines.some((l) => l.includes('"event":"login.failed"') || l.includes('"event":"login.throttled"')), 'the refusal counted as no failure');
});

tap.test('the developer area turns a sign-in away too, rather than queue it behind a rush', async (t) => {
  const lanyard = await startLanyard(t);
  const developer = await createDeveloper(lanyard); // before the rush: accepting an invitation hashes a password
  const rush = await saturate(t);
  t.ok(rush.slots.expectedWaitMs() > SIGN_IN_MAX_WAIT_MS, `a newcomer would wait ${rush.slots.expectedWaitMs().toFixed(0)} ms`);

  const browser = new HttpBrowser();
  const signInUrl = `${lanyard.url}/developer/sign-in`;
  const { csrf } = await formCsrf(browser, signInUrl);
  const refused = await browser.post(signInUrl, { csrf, email: developer.email, password: developer.password });
  t.equal(refused.status, 503, '503: saturated, not failing');
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.ok(retryAfter >= 11 && retryAfter <= 15, `Retry-After: ${retryAfter} s`);
  const page = await refused.text();
  t.match(page, new RegExp(`Lots of people are signing in right now\\. Please wait <span[^>]*>${retryAfter} seconds</span>, then try again\\.`), 'told how long to wait');
  t.match(page, /name="csrf"/, 'on the form, to try again');
  t.match(page, new RegExp(`value="${developer.email.replace(/[.]/g, '\\.')}"`), 'with the email kept');
  t.equal(rush.slots.waiting, 10, 'never joined the queue');
  const events = lanyard.logs.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  t.match(events.find((l) => l.event === 'developer.sign_in_busy'), { retryAfter, step: 'password' }, 'logged as busy');
  t.notOk(events.some((l) => l.event === 'developer.sign_in_failed' || l.event === 'developer.sign_in_unavailable'), 'not as a failure');

  await rush.free();
  await signInDeveloper(lanyard, { email: developer.email, password: developer.password });
  t.pass('once the rush is over the same developer signs in');
});
