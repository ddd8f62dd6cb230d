import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { oneReloadAtATime } from '../../src/cluster/reload.js';

t.test('reloads run one at a time; signals during one ask for exactly one more', async (t) => {
  let running = 0;
  let most = 0;
  let runs = 0;
  const signal = oneReloadAtATime(async () => {
    running += 1;
    most = Math.max(most, running);
    runs += 1;
    await sleep(50);
    running -= 1;
  });
  signal();
  signal();
  signal();
  signal();
  await sleep(300);
  t.equal(runs, 2, 'the first, then one more for the three that came during it');
  t.equal(most, 1, 'never two at once');
  signal();
  await sleep(100);
  t.equal(runs, 3, 'a later signal reloads again');
});
