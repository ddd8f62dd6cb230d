import { randomBytes } from 'node:crypto';
import Keygrip from 'keygrip';
import t from 'tap';
import { CookieSigner } from '../../../src/provider/cookie-signer.js';

/**
 * oidc-provider's cookies were signed by keygrip (through the `cookies` library) before CookieSigner took
 * its place: every signature must be the same, so that a browser's cookies stay valid across the upgrade,
 * and a key rotation must still be told apart by index.
 */

const key = () => randomBytes(32).toString('base64url');
const VALUES = ['_interaction=abc123', '_session=' + 'x'.repeat(300), '', 'ünïcödé=✓', '_interaction_resume=/+='];

t.test('signs exactly as keygrip does, with the first key', async (t) => {
  const keys = [key(), key()];
  const ours = new CookieSigner(keys);
  const theirs = new Keygrip(keys);
  for (const value of VALUES) t.equal(ours.sign(value), theirs.sign(value), `same signature for ${JSON.stringify(value.slice(0, 20))}`);
  t.equal(ours.sign(VALUES[0]), new Keygrip([keys[0]!]).sign(VALUES[0]), 'the first key signs');
  t.not(ours.sign(VALUES[0]), new Keygrip([keys[1]!]).sign(VALUES[0]), 'not the second');
});

t.test("accepts keygrip's signatures by any configured key and says which", async (t) => {
  const [newest, older, retired] = [key(), key(), key()];
  const ours = new CookieSigner([newest, older]);
  for (const value of VALUES) {
    t.equal(ours.index(value, new Keygrip([newest]).sign(value)), 0, 'signed with the first key: 0');
    t.equal(ours.index(value, new Keygrip([older]).sign(value)), 1, 'signed with the second: 1 (to be signed again)');
    t.equal(ours.index(value, new Keygrip([retired]).sign(value)), -1, 'signed with a key no longer configured: -1');
  }
  const sig = ours.sign('_session=abc');
  t.ok(ours.verify('_session=abc', sig));
  t.notOk(ours.verify('_session=abd', sig), 'another value');
  t.notOk(ours.verify('_session=abc', sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A')), 'a changed signature');
  t.notOk(ours.verify('_session=abc', sig.slice(1)), 'a shorter one');
  t.notOk(ours.verify('_session=abc', sig + 'A'), 'a longer one');
  t.notOk(ours.verify('_session=abc', ''), 'an empty one');
  t.notOk(ours.verify('_session=abc', undefined as unknown as string), 'none (the .sig cookie missing)');
});

t.test('Buffer keys as keygrip takes them; at least one key', async (t) => {
  const raw = randomBytes(32);
  t.equal(new CookieSigner([raw]).sign('a=b'), new Keygrip([raw as unknown as string]).sign('a=b'));
  t.throws(() => new CookieSigner([]), /at least one key/);
});
