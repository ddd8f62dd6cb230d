import t from 'tap';
import { holdHangUps, onHangUp } from '../../../src/process/hang-up.js';

/** The SIGHUP listeners added while `fn` runs (they are removed again at the test's end). */
function added(t: { teardown(fn: () => void): void }, fn: () => void): ((signal: NodeJS.Signals) => void)[] {
  const before = process.listeners('SIGHUP');
  fn();
  const mine = process.listeners('SIGHUP').filter((l) => !before.includes(l));
  t.teardown(() => { for (const l of mine) process.off('SIGHUP', l); });
  return mine;
}

t.test('SIGHUP: on a terminal the hang-up stops Lanyard; otherwise it asks for a reload', async (t) => {
  for (const [isTTY, expected] of [[true, 'stop'], [false, 'reload'], [undefined, 'reload']] as const) {
    const calls: string[] = [];
    const [listener] = added(t, () => onHangUp({ isTTY }, { stop: () => calls.push('stop'), reload: () => calls.push('reload') }));
    listener!('SIGHUP');
    t.same(calls, [expected], `isTTY ${String(isTTY)}: ${expected}`);
  }
});

t.test('a SIGHUP while Lanyard starts is held, then acted on once it can be', async (t) => {
  const [held] = added(t, holdHangUps);
  t.ok(held, 'a listener from the start: the default action (exit) never applies');
  held!('SIGHUP');
  const calls: string[] = [];
  added(t, () => onHangUp({ isTTY: false }, { stop: () => calls.push('stop'), reload: () => calls.push('reload') }));
  t.same(calls, ['reload'], 'acted on when set up');
  t.notOk(process.listeners('SIGHUP').includes(held!), 'and the holding listener is gone');
});
