import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { NoAnswer, PendingReplies } from '../../../src/process/pending-replies.js';

t.test('each request is settled once, by its answer; what comes after is dropped', async (t) => {
  const replies = new PendingReplies<string>();
  const a = replies.open(undefined);
  const b = replies.open(undefined);
  t.not(a.id, b.id, 'ids of their own');
  replies.settle(b.id, 'to b');
  replies.settle(a.id, 'to a');
  replies.settle(a.id, 'late');
  t.equal(await a.outcome, 'to a');
  t.equal(await b.outcome, 'to b', 'each answer to its own request');
});

t.test('a timeout settles with NoAnswer and its reason; an answer in time stands', async (t) => {
  const replies = new PendingReplies<string>();
  const slow = replies.open(undefined, { ms: 30, reason: 'no word within 30 ms' });
  const quick = replies.open(undefined, { ms: 30, reason: 'unused' });
  replies.settle(quick.id, 'in time');
  t.equal(await quick.outcome, 'in time');
  // Its timer does not hold the process open (unref'd): this sleep does, meanwhile.
  const [outcome] = await Promise.all([slow.outcome, sleep(60)]);
  t.ok(outcome instanceof NoAnswer, 'timed out');
  t.equal((outcome as NoAnswer).reason, 'no word within 30 ms');
  replies.settle(slow.id, 'too late');
  t.equal(await slow.outcome, outcome, 'a late answer changes nothing');
});

t.test('settleAll: the requests asked of one side, or every one', async (t) => {
  const replies = new PendingReplies<number, string>();
  const toA = [replies.open('a'), replies.open('a')];
  const toB = replies.open('b');
  replies.settleAll(0, 'a');
  t.same(await Promise.all(toA.map((r) => r.outcome)), [0, 0], 'those asked of a');
  const stillWaiting = await Promise.race([toB.outcome, sleep(20, 'waiting')]);
  t.equal(stillWaiting, 'waiting', 'b’s still waits');
  replies.settleAll(new NoAnswer('everyone gone'));
  t.same(await toB.outcome, new NoAnswer('everyone gone'), 'then every one');
});
