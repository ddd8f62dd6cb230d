import t, { type Test } from 'tap';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { ManualClock } from '../../src/clock.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { headerOf, issueTokens } from '../helpers/tokens.js';

async function jwks(lanyard: Lanyard): Promise<{ set: JSONWebKeySet; maxAge: number }> {
  const res = await fetch(`${lanyard.url}/.well-known/jwks.json`);
  const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]);
  return { set: await res.json() as JSONWebKeySet, maxAge };
}

const kids = (set: JSONWebKeySet) => set.keys.map((k) => k.kid);

async function verifies(lanyard: Lanyard, idToken: string): Promise<boolean> {
  const { set } = await jwks(lanyard);
  try {
    await jwtVerify(idToken, createLocalJWKSet(set), { issuer: lanyard.url, audience: 'demo-app' });
    return true;
  } catch {
    return false;
  }
}

async function at(t: Test, lanyard: Lanyard, clock: ManualClock, iso: string) {
  clock.set(new Date(iso));
  await lanyard.app.lanyard.keyRotation.tick();
  return jwks(lanyard);
}

t.test('monthly rotation at exactly 00:00:00 UTC on the 1st, without a restart', async (t) => {
  const clock = new ManualClock(new Date('2027-01-31T23:59:58.000Z'));
  const lanyard = await startLanyard(t, { clock });
  await lanyard.app.lanyard.keyRotation.tick();
  const january = (await lanyard.store.listKeys()).find((k) => k.month === '2027-01')!;
  const february = (await lanyard.store.listKeys()).find((k) => k.month === '2027-02');
  t.ok(february, 'next month’s key was prepared ahead of the boundary');

  const before = await jwks(lanyard);
  t.same(kids(before.set), [january.kid], 'only January is published: February is pending');
  t.ok(before.maxAge <= 2, `key set cacheable only until the rotation (max-age ${before.maxAge})`);
  const tokenJan = (await issueTokens(lanyard.url)).id_token!;
  t.equal(headerOf(tokenJan).kid, january.kid, 'January signs in January');

  const lastMs = await at(t, lanyard, clock, '2027-01-31T23:59:59.999Z');
  t.same(kids(lastMs.set), [january.kid], 'still January at 23:59:59.999');
  t.equal(headerOf((await issueTokens(lanyard.url)).id_token!).kid, january.kid);

  const first = await at(t, lanyard, clock, '2027-02-01T00:00:00.000Z');
  t.same(kids(first.set), [february!.kid, january.kid], 'at 00:00:00.000: [February, January]');
  t.equal(headerOf((await issueTokens(lanyard.url)).id_token!).kid, february!.kid, 'February signs from the 1st');
  t.ok(await verifies(lanyard, tokenJan), 'a token signed just before the boundary still verifies just after');

  const march = await at(t, lanyard, clock, '2027-03-01T00:00:00.000Z');
  t.equal(march.set.keys.length, 2, 'never more than two published');
  t.notOk(kids(march.set).includes(january.kid), 'January withdrawn the moment it stops being previous');
  t.notOk(await verifies(lanyard, tokenJan), 'a token signed with a key two months old no longer verifies');
  const tokenMar = (await issueTokens(lanyard.url)).id_token!;
  t.equal(headerOf(tokenMar).kid, kids(march.set)[0], 'March signs');
  t.ok(await verifies(lanyard, tokenMar));
  t.ok(lanyard.logs.some((l) => l.includes('"event":"key.rotated"')), 'key.rotated logged');

  await at(t, lanyard, clock, '2027-04-01T00:00:01.000Z');
  t.notOk((await lanyard.store.listKeys()).some((k) => k.kid === january.kid), 'expired January key purged from storage');
});

for (const [label, last, next, oldMonth, newMonth] of [
  ['year boundary', '2027-12-31T23:59:59.999Z', '2028-01-01T00:00:00.000Z', '2027-12', '2028-01'],
  ['leap year: 29 February', '2028-02-29T23:59:59.999Z', '2028-03-01T00:00:00.000Z', '2028-02', '2028-03'],
  ['non-leap February', '2027-02-28T23:59:59.999Z', '2027-03-01T00:00:00.000Z', '2027-02', '2027-03'],
] as const) {
  t.test(`${label}: the switch is at the 1st 00:00:00 UTC`, async (t) => {
    const clock = new ManualClock(new Date(last));
    const lanyard = await startLanyard(t, { clock });
    await lanyard.app.lanyard.keyRotation.tick();
    const keyFor = async (month: string) => (await lanyard.store.listKeys()).find((k) => k.month === month)!;
    t.equal(headerOf((await issueTokens(lanyard.url)).id_token!).kid, (await keyFor(oldMonth)).kid, `${oldMonth} signs at ${last}`);
    const after = await at(t, lanyard, clock, next);
    t.same(kids(after.set), [(await keyFor(newMonth)).kid, (await keyFor(oldMonth)).kid], `[${newMonth}, ${oldMonth}] at ${next}`);
    t.equal(headerOf((await issueTokens(lanyard.url)).id_token!).kid, (await keyFor(newMonth)).kid, `${newMonth} signs`);
  });
}

t.test('two instances on one store: one key per month, identical key sets across the boundary', async (t) => {
  const clock = new ManualClock(new Date('2027-05-31T23:59:59.000Z'));
  const a = await startLanyard(t, { clock });
  const b = await startLanyard(t, { clock, dir: a.dir, env: { LANYARD_ISSUER: a.url } });
  await Promise.all([a.app.lanyard.keyRotation.tick(), b.app.lanyard.keyRotation.tick()]);
  const months = (await a.store.listKeys()).map((k) => k.month);
  t.same(months, ['2027-05', '2027-06'], 'exactly one key per month, created once');
  t.same((await jwks(a)).set, (await jwks(b)).set, 'same key set before');

  clock.set(new Date('2027-06-01T00:00:00.000Z'));
  await Promise.all([a.app.lanyard.keyRotation.tick(), b.app.lanyard.keyRotation.tick()]);
  const [ja, jb] = [await jwks(a), await jwks(b)];
  t.equal(ja.set.keys.length, 2);
  t.same(ja.set, jb.set, 'same key set after, without coordinating');
  t.equal(kids(ja.set)[0], (await a.store.listKeys()).find((k) => k.month === '2027-06')!.kid);
  t.equal((await b.store.listKeys()).length, 2, 'still one key per month');
});

t.test('emergency rotation: a fresh key signs at once, the replaced key leaves the key set', async (t) => {
  const clock = new ManualClock(new Date('2027-08-10T12:00:00.000Z'));
  const lanyard = await startLanyard(t, { clock });
  // A previous month's key, as a long-running instance would have.
  clock.set(new Date('2027-07-20T12:00:00.000Z'));
  await lanyard.keyManager.ensureMonth('2027-07');
  clock.set(new Date('2027-08-10T12:00:00.000Z'));
  await lanyard.app.lanyard.keyRotation.tick();
  const before = kids((await jwks(lanyard)).set);
  t.equal(before.length, 2, '[August, July]');
  const oldToken = (await issueTokens(lanyard.url)).id_token!;

  const fresh = await lanyard.keyManager.rotateNow();
  await lanyard.app.lanyard.keyRotation.tick();
  const after = kids((await jwks(lanyard)).set);
  t.same(after, [fresh.kid, before[1]], 'fresh key first, July kept, compromised August key gone');
  t.equal(fresh.notBefore, '2027-08-10T12:00:00.000Z', 'the new certificate starts now');
  t.equal(fresh.notAfter, '2027-09-30T23:59:59.000Z', 'and ends with the month’s window');
  t.notOk(await verifies(lanyard, oldToken), 'tokens signed with the withdrawn key no longer verify');
  const newToken = (await issueTokens(lanyard.url)).id_token!;
  t.equal(headerOf(newToken).kid, fresh.kid);
  t.ok(await verifies(lanyard, newToken));
  const statuses = await lanyard.keyManager.publishedKids();
  t.same(statuses, after);

  await at(t, lanyard, clock, '2027-09-01T00:00:00.000Z');
  t.same(kids((await jwks(lanyard)).set).slice(1), [fresh.kid], 'in September the emergency key is the previous one');
});

t.test('no request fails while the provider is swapped', async (t) => {
  const clock = new ManualClock(new Date('2027-09-30T23:59:59.000Z'));
  const lanyard = await startLanyard(t, { clock });
  const { host } = lanyard.app.lanyard;
  await lanyard.app.lanyard.keyRotation.tick();
  let swaps = 0;
  let running = true;
  const swapper = (async () => {
    while (running) {
      host.rekey((await lanyard.keyManager.keySetAt(clock.now()))!);
      swaps += 1;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  // Sign-ins whose steps land on different provider instances, and the boundary crossed in the middle.
  const flows = Array.from({ length: 6 }, () => issueTokens(lanyard.url));
  setTimeout(() => { clock.set(new Date('2027-10-01T00:00:00.000Z')); }, 20);
  const results = await Promise.allSettled(flows);
  running = false;
  await swapper;
  t.ok(swaps > 10, `the provider was swapped ${swaps} times during the sign-ins`);
  t.same(results.map((r) => (r.status === 'fulfilled' ? r.status : String(r.reason))), Array(6).fill('fulfilled'), 'every sign-in and token request succeeded');
  for (const r of results) {
    if (r.status === 'fulfilled') t.ok(await verifies(lanyard, r.value.id_token!), 'and its ID token verifies');
  }
});
