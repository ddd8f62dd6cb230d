import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { oneReloadAtATime } from '../../../src/cluster/reload.js';

t.test('reloads run one at a time; signals during one ask for exactly one more', async (t) => {
  let running = 0;
  let most = 0;
  let runs = 0;
  const reloads = oneReloadAtATime(async () => {
    running += 1;
    most = Math.max(most, running);
    runs += 1;
    await sleep(50);
    running -= 1;
  });
  for (let i = 0; i < 4; i += 1) reloads.request();
  await reloads.settled();
  t.equal(runs, 2, 'the first, then one more for the three that came during it');
  t.equal(most, 1, 'never two at once');
  t.equal(running, 0, 'settled once none runs');
  reloads.request();
  await reloads.settled();
  t.equal(runs, 3, 'a later signal reloads again');
  await t.resolves(reloads.settled(), 'settled with nothing running');
});

t.test('a reload that throws neither escapes nor stops the next one', async (t) => {
  let runs = 0;
  const reloads = oneReloadAtATime(async () => {
    runs += 1;
    await sleep(10);
    if (runs === 1) throw new Error('boom');
  });
  reloads.request();
  reloads.request();
  await t.resolves(reloads.settled(), 'no rejection comes out');
  t.equal(runs, 2, 'the one asked for meanwhile still ran');
});
