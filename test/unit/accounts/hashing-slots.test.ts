import cluster, { type Worker } from 'node:cluster';
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { Limiter, LimiterBusyError } from '../../../src/accounts/limiter.js';
import { brokerHashingSlots } from '../../../src/cluster/hashing-broker.js';
import { RemoteSlots } from '../../../src/cluster/hashing-client.js';
import { argon2Slots, threadPoolSize } from '../../../src/cluster/sizing.js';
import { StoreUnavailableError } from '../../../src/errors.js';

t.test('argon2 slots: cores − 1 for the whole machine, at least 1; every worker’s pool has room for all of them', async (t) => {
  t.same([1, 2, 4, 16].map((cores) => argon2Slots(cores)), [1, 1, 3, 15]);
  t.equal(threadPoolSize(2, 2), 4, 'never below libuv’s 4');
  t.equal(threadPoolSize(16, 16), 17, '15 argon2 slots + 1 core’s share of signing + 1');
  t.equal(threadPoolSize(1, 8), 7 + 8 + 1);
  t.same([1, 2, 8].map((cores) => threadPoolSize(1, cores)), [4, 4, 16], 'a process serving alone: every argon2 slot, every core for signing, and one');
});

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

/** A worker's end of the IPC channel and the primary's view of that worker, joined in this process. */
function worker(): { channel: EventEmitter & { connected: boolean; send(m: unknown): boolean }; worker: Worker; exit(): void } {
  const channel = Object.assign(new EventEmitter(), {
    connected: true,
    send(m: unknown) {
      setImmediate(() => cluster.emit('message', primarySide, m));
      return true;
    },
  });
  const primarySide = {
    isConnected: () => channel.connected,
    send(m: unknown) {
      setImmediate(() => channel.emit('message', m));
      return true;
    },
  } as unknown as Worker;
  return {
    channel,
    worker: primarySide,
    exit() {
      channel.connected = false;
      channel.emit('disconnect');
      cluster.emit('exit', primarySide, null, 'SIGKILL');
    },
  };
}

t.test('two workers share the primary’s slots: never more than the machine allows, a dead worker’s slots come back', async (t) => {
  const stop = brokerHashingSlots(new Limiter(2));
  t.teardown(stop);
  const a = worker();
  const b = worker();
  const slotsA = new RemoteSlots(a.channel);
  const slotsB = new RemoteSlots(b.channel);
  let running = 0;
  let peak = 0;
  const task = (i: number) => async () => {
    running += 1;
    peak = Math.max(peak, running);
    await sleep(5 + (i % 3) * 5);
    running -= 1;
    return i;
  };
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? slotsA : slotsB).run(task(i))));
  t.equal(peak, 2, 'at most 2 at once across both workers, and both used');
  t.same(results, Array.from({ length: 12 }, (_, i) => i), 'every task ran, each result to its caller');
  await t.rejects(slotsA.run(async () => { throw new Error('boom'); }), /boom/, 'a failing task rejects its caller');

  // Worker A takes both slots and dies holding them: B still gets one.
  let holdA!: () => void;
  const held = new Promise<void>((resolve) => { holdA = resolve; });
  void slotsA.run(() => held).catch(() => undefined);
  void slotsA.run(() => held).catch(() => undefined);
  await sleep(20);
  const waitingInA = slotsA.run(async () => 'never').then(() => undefined, (err: unknown) => err);
  const waitingInB = slotsB.run(async () => 'after A died');
  await sleep(20);
  a.exit();
  t.equal(await waitingInB, 'after A died', 'the dead worker’s slots went to the other');
  t.ok((await waitingInA) instanceof StoreUnavailableError, 'what the dead worker still waited for is refused as unavailable, not left hanging');
  holdA();
  await t.rejects(slotsA.run(async () => 'x'), StoreUnavailableError, 'and so is anything it asks for after');
});

t.test('a worker is told to come back when the machine’s queue is too long', async (t) => {
  const limiter = new Limiter(1);
  const stop = brokerHashingSlots(limiter);
  t.teardown(stop);
  const a = worker();
  const slots = new RemoteSlots(a.channel);
  await slots.run(() => sleep(200));
  let release!: () => void;
  const hold = slots.run(() => new Promise<void>((resolve) => { release = resolve; }));
  await sleep(20);
  const queued = slots.run(async () => 'queued');
  await sleep(20);
  const refused = await slots.run(async () => 'ran', { maxWaitMs: 100 }).then(() => undefined, (err: unknown) => err);
  t.ok(refused instanceof LimiterBusyError, 'refused: two holds of about 200 ms ahead, 100 ms allowed');
  t.equal((refused as LimiterBusyError).retryAfterSeconds, 1);
  const patient = slots.run(async () => 'patient', { maxWaitMs: 5_000 });
  release();
  await hold;
  t.same(await Promise.all([queued, patient]), ['queued', 'patient'], 'one who may wait longer queues, and the queue moves on');
  a.exit();
});
