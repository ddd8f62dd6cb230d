import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import tap from 'tap';
import { SIGN_IN_MAX_WAIT_MS, useCredentialHashingSlots } from '../../src/accounts/credential-hasher.js';
import { Limiter } from '../../src/accounts/limiter.js';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import { argon2Slots } from '../../src/cluster/sizing.js';
import { loadConfig } from '../../src/config.js';
import { openServices } from '../../src/services.js';
import { EMOJI_KID, HttpBrowser, openMethod, postEmoji } from '../helpers/children.js';
import { freePort } from '../helpers/lanyard.js';
import { pooledKeyPair } from '../helpers/test-keys.js';

/**
 * Above saturation a sign-in is turned away at once with 503 and Retry-After (issue 11: the morning peak
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
  const slots = new Limiter(1);
  useCredentialHashingSlots(slots);
  t.teardown(async () => {
    useCredentialHashingSlots(new Limiter(argon2Slots()));
    await app.close();
    await services.store.close();
  });

  const learned = await slots.acquire();
  await sleep(1_200);
  learned(); // the slots now expect each hash to take about 1.2 s
  const held = await slots.acquire();
  const queued = Array.from({ length: 10 }, () => slots.acquire());
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

  held();
  for (const waiter of queued) (await waiter)();
  const again = await openMethod(tablet, issuer, 'emoji');
  const signedIn = await postEmoji(tablet, issuer, again, EMOJI_KID.username, EMOJI_KID.emoji);
  t.equal(signedIn.status, 303, 'once the rush is over the same pupil signs in');
  t.notOk(lines.some((l) => l.includes('"event":"login.failed"') || l.includes('"event":"login.throttled"')), 'the refusal counted as no failure');
});
