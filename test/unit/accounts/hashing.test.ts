import cluster, { type Worker } from 'node:cluster';
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { ARGON2_OPTIONS, argon2Verify, DUMMY_HASH, type Hasher, localHasher, useCredentialHasher, verifyAgainstDummy } from '../../../src/accounts/credential-hasher.js';
import { Limiter, LimiterBusyError, type Release, type WaitOptions } from '../../../src/accounts/limiter.js';
import { hashForWorkers } from '../../../src/cluster/hashing-broker.js';
import { RemoteHasher } from '../../../src/cluster/hashing-client.js';
import { StoreUnavailableError } from '../../../src/errors.js';

t.test('Limiter: learns how long a slot is held and refuses a newcomer who would wait longer than allowed', async (t) => {
  const limiter = new Limiter(2);
  t.equal(limiter.expectedWaitMs(), 0, 'a free slot: no wait');
  for (const release of await Promise.all([limiter.acquire(), limiter.acquire()])) {
    await sleep(100);
    release();
  }
  const held = await Promise.all([limiter.acquire(), limiter.acquire()]);
  const queued = [limiter.acquire(), limiter.acquire(), limiter.acquire()];
  // Three ahead, two at a time: the newcomer waits two holds of about 100 ms (and 150 ms on average).
  const expected = limiter.expectedWaitMs();
  t.ok(expected >= 180 && expected < 600, `expected wait ${expected.toFixed(0)} ms`);
  const refused = await limiter.acquire({ maxWaitMs: 100 }).then(() => undefined, (err: unknown) => err);
  t.ok(refused instanceof LimiterBusyError, 'a newcomer who may wait 100 ms is refused');
  t.equal((refused as LimiterBusyError).retryAfterSeconds, 1, 'and told to come back in whole seconds (at least 1)');
  t.equal(limiter.waiting, 3, 'the refused one never joined the queue');
  for (const release of held) release();
  for (const waiter of queued) (await waiter)();
  t.equal(limiter.expectedWaitMs(), 0, 'free again');
});

/**
 * A worker's end of the IPC channel and the primary's view of that worker, joined in this process. Messages
 * go through JSON, as node's IPC sends them; a send after the worker is gone fails through its callback.
 */
type Send = (m: unknown, handle?: undefined, options?: undefined, callback?: (err: Error | null) => void) => boolean;
function worker(): { channel: EventEmitter & { connected: boolean; send: Send }; worker: Worker; exit(): void } {
  const carry = (deliver: () => void, callback?: (err: Error | null) => void) => {
    setImmediate(() => {
      if (!channel.connected) return callback?.(new Error('channel closed'));
      deliver();
      callback?.(null);
    });
    return true;
  };
  const channel = Object.assign(new EventEmitter(), {
    connected: true,
    send: ((m, _h, _o, callback) => carry(() => cluster.emit('message', primarySide, JSON.parse(JSON.stringify(m))), callback)) as Send,
  });
  const primarySide = {
    isConnected: () => channel.connected,
    send: ((m, _h, _o, callback) => carry(() => channel.emit('message', JSON.parse(JSON.stringify(m))), callback)) as Send,
  } as unknown as Worker;
  return {
    channel,
    worker: primarySide,
    exit() {
      channel.connected = false;
      channel.emit('disconnect');
    },
  };
}

/** The primary's slots, counting how many are held at once, and which were used (learned) or given back unused. */
class CountingLimiter extends Limiter {
  readonly seen = { running: 0, peak: 0, answered: 0, skipped: 0 };
  override async acquire(o: WaitOptions = {}): Promise<Release> {
    const release = await super.acquire(o);
    const seen = this.seen;
    seen.running += 1;
    seen.peak = Math.max(seen.peak, seen.running);
    let done = false;
    return ({ learn = true } = {}) => {
      if (!done) {
        done = true;
        seen.running -= 1;
        if (learn) seen.answered += 1;
        else seen.skipped += 1;
      }
      release({ learn });
    };
  }
}

/** The primary serving two workers' hashers, within `limiter`'s slots (counted). */
function twoWorkers(t: { teardown(fn: () => void): void }, limiter: CountingLimiter) {
  const seen = limiter.seen;
  t.teardown(hashForWorkers(limiter));
  const a = worker();
  const b = worker();
  return { seen, a, hasherA: new RemoteHasher(a.channel), hasherB: new RemoteHasher(b.channel) };
}

t.test('the primary hashes and checks for every worker: never more at once than the machine allows, each answer to its caller', async (t) => {
  const { seen, hasherA, hasherB } = twoWorkers(t, new CountingLimiter(2));
  const hashed = await hasherA.hash('correct horse');
  t.match(hashed, /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/, 'a hash with Lanyard’s parameters, made by the primary');
  const checks = Array.from({ length: 8 }, (_, i) => (i % 2 ? hasherA : hasherB).verify(hashed, i % 3 ? 'correct horse' : 'wrong horse'));
  t.same(await Promise.all(checks), Array.from({ length: 8 }, (_, i) => i % 3 !== 0), 'every check answered, right and wrong, each to its caller');
  t.equal(seen.peak, 2, 'at most 2 at once across both workers, and both used');
  t.equal(await hasherB.verify('not-a-hash', 'correct horse'), false, 'a malformed stored hash is a mismatch, not an error');
  t.equal(seen.answered, 10);
});

t.test('a worker that dies: what it queued is skipped, what it waits for is refused as unavailable, the others go on', async (t) => {
  const limiter = new CountingLimiter(1);
  const { seen, a, hasherA, hasherB } = twoWorkers(t, limiter);
  const hashed = await hasherB.hash('pupil secret');
  const release = await limiter.acquire(); // the machine's only slot, held
  const waitingInA = Array.from({ length: 3 }, () => hasherA.verify(hashed, 'pupil secret').then(() => undefined, (err: unknown) => err));
  const waitingInB = hasherB.verify(hashed, 'pupil secret');
  await sleep(30);
  a.exit();
  for (const refused of await Promise.all(waitingInA)) t.ok(refused instanceof StoreUnavailableError, 'refused as unavailable, not left hanging');
  release();
  t.equal(await waitingInB, true, 'the other worker’s check is answered');
  t.equal(seen.skipped, 3, 'the dead worker’s three checks were skipped, not hashed');
  await t.rejects(hasherA.verify(hashed, 'pupil secret'), StoreUnavailableError, 'and so is anything it asks for after');
});

t.test('a worker is told to come back when the machine’s queue is too long', async (t) => {
  const limiter = new Limiter(1);
  const stop = hashForWorkers(limiter);
  t.teardown(stop);
  const a = worker();
  const hasher = new RemoteHasher(a.channel);
  const learned = await limiter.acquire();
  await sleep(200);
  learned(); // the slots now expect each hash to take about 200 ms
  const release = await limiter.acquire();
  const hashed = hasher.hash('queued');
  await sleep(20);
  const refused = await hasher.verify('$argon2id$v=19$m=19456,t=2,p=1$x$y', 'x', { maxWaitMs: 100 }).then(() => undefined, (err: unknown) => err);
  t.ok(refused instanceof LimiterBusyError, 'refused: two holds of about 200 ms ahead, 100 ms allowed');
  t.equal((refused as LimiterBusyError).retryAfterSeconds, 1);
  const patient = hasher.verify('not-a-hash', 'x', { maxWaitMs: 5_000 });
  release();
  t.match(await hashed, /^\$argon2id\$/, 'one who may wait longer queues, and the queue moves on');
  t.equal(await patient, false);
  a.exit();
});

t.test('a request the primary cannot read is answered, not left waiting', async (t) => {
  t.teardown(hashForWorkers(new Limiter(1)));
  const a = worker();
  const answered = new Promise<unknown>((resolve) => a.channel.on('message', resolve));
  a.channel.send({ lanyard: 'argon2?', id: 7, op: 'verify', plain: 'secret', maxWaitMs: null });
  t.same(await answered, { lanyard: 'argon2', id: 7, failed: 'malformed request' });
  a.exit();
});

t.test('an unknown user costs one check within the slots, against a dummy hash with Lanyard’s parameters', async (t) => {
  const { memoryCost, timeCost, parallelism } = ARGON2_OPTIONS;
  t.match(DUMMY_HASH, new RegExp(`^\\$argon2id\\$v=19\\$m=${memoryCost},p=${parallelism},t=${timeCost}\\$`), 'as costly to check as a real credential');
  // A well-formed hash of what its comment says (a broken one would be rejected at once, without the cost).
  t.equal(await argon2Verify(DUMMY_HASH, 'lanyard-dummy-credential'), true, 'the real hash of the public dummy string');
  const calls: string[] = [];
  const limiter = new Limiter(1);
  const local = localHasher(limiter);
  const counting: Hasher = {
    hash: (plain) => { calls.push('hash'); return local.hash(plain); },
    verify: (hash, plain, o) => { calls.push(`verify ${hash === DUMMY_HASH ? 'dummy' : 'other'} ${o?.maxWaitMs ?? '-'}`); return local.verify(hash, plain, o); },
  };
  useCredentialHasher(counting);
  t.teardown(() => useCredentialHasher(localHasher(new Limiter(1))));
  t.equal(await verifyAgainstDummy('lanyard-dummy-credential', { maxWaitMs: 50 }), false, 'always a mismatch');
  t.equal(await verifyAgainstDummy('anything'), false);
  t.same(calls, ['verify dummy 50', 'verify dummy -'], 'each a check through the hasher (the slots), with the caller’s wait; nothing hashed');
});
