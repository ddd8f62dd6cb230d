import t from 'tap';
import { onHangUp } from '../../src/hang-up.js';

t.test('SIGHUP: on a terminal the hang-up stops Lanyard; otherwise it asks for a reload', async (t) => {
  const before = process.listeners('SIGHUP');
  t.teardown(() => { for (const l of process.listeners('SIGHUP')) if (!before.includes(l)) process.off('SIGHUP', l); });
  for (const [isTTY, expected] of [[true, 'stop'], [false, 'reload'], [undefined, 'reload']] as const) {
    const calls: string[] = [];
    const listenersBefore = process.listeners('SIGHUP');
    onHangUp({ isTTY }, { stop: () => calls.push('stop'), reload: () => calls.push('reload') });
    const mine = process.listeners('SIGHUP').find((l) => !listenersBefore.includes(l))!;
    mine('SIGHUP');
    t.same(calls, [expected], `isTTY ${String(isTTY)}: ${expected}`);
  }
});
