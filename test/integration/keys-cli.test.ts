import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { freePort, startLanyard } from '../helpers/lanyard.js';
import { lanyard } from '../helpers/cli.js';

interface Listed { kid: string; month: string; status: string; notBefore: string; notAfter: string; revokedAt?: string }

t.test('keys list and keys rotate --now against a running instance', async (t) => {
  const server = await startLanyard(t);
  const env = { LANYARD_STORE: `sqlite:${join(server.dir, 'lanyard.db')}` };

  const listed = await lanyard(['keys', 'list', '--json'], env);
  t.equal(listed.code, 0, listed.stderr);
  // In a month's last three days next month's key is already made (policy.ts, PREGENERATE_MS): 'pending'.
  const all = JSON.parse(listed.stdout) as Listed[];
  const pending = all.filter((k) => k.status === 'pending').map((k) => [k.kid, k.status]);
  t.ok(pending.length <= 1, 'at most next month\'s key waits');
  const keys = all.filter((k) => k.status !== 'pending');
  t.equal(keys.length, 1);
  t.equal(keys[0]!.status, 'signing');
  t.match(keys[0]!.notAfter, /T23:59:59\.000Z$/);

  const table = await lanyard(['keys', 'list'], env);
  t.match(table.stdout, /^KID\s+MONTH\s+VALID FROM\s+VALID UNTIL\s+STATUS/);
  t.match(table.stdout, new RegExp(`${keys[0]!.kid}\\s+${keys[0]!.month}\\s+\\S+\\s+\\S+\\s+signing`));

  const unconfirmed = await lanyard(['keys', 'rotate'], env);
  t.equal(unconfirmed.code, 1, 'rotate without --now is refused');
  t.match(unconfirmed.stderr, /confirm with --now/);

  const rotated = await lanyard(['keys', 'rotate', '--now'], env);
  t.equal(rotated.code, 0, rotated.stderr);
  const fresh = /new signing key (\S+)/.exec(rotated.stdout)?.[1];
  t.ok(fresh && fresh !== keys[0]!.kid, 'a new kid');
  t.match(rotated.stdout, `withdrawn from the key set: ${keys[0]!.kid}`);

  await server.app.lanyard.keyRotation.tick(); // what the instance's poll does
  const jwks = await (await fetch(`${server.url}/.well-known/jwks.json`)).json() as { keys: { kid: string }[] };
  t.same(jwks.keys.map((k) => k.kid), [fresh], 'the running instance publishes only the new key');

  const after = JSON.parse((await lanyard(['keys', 'list', '--json'], env)).stdout) as Listed[];
  t.same(after.map((k) => [k.kid, k.status]), [[keys[0]!.kid, 'retired'], [fresh, 'signing'], ...pending], 'next month\'s key, if made, untouched');
  t.ok(after[0]!.revokedAt, 'the replaced key records when');
});

t.test('a tampered key record stops startup with a clear message; nothing is regenerated', async (t) => {
  const server = await startLanyard(t);
  await server.stop();
  const db = new Database(join(server.dir, 'lanyard.db'));
  // This month's key (next month's may be there too in a month's last days: policy.ts, PREGENERATE_MS).
  const before = (db.prepare('SELECT count(*) AS n FROM signing_keys').get() as { n: number }).n;
  const row = db.prepare('SELECT kid, encrypted_private_key AS sealed FROM signing_keys ORDER BY month LIMIT 1').get() as { kid: string; sealed: string };
  const parts = row.sealed.split('.');
  const body = Buffer.from(parts[3]!, 'base64url');
  body[10] = body[10]! ^ 0xff;
  parts[3] = body.toString('base64url');
  db.prepare('UPDATE signing_keys SET encrypted_private_key = ? WHERE kid = ?').run(parts.join('.'), row.kid);
  db.close();

  const run = await lanyard(['serve'], { LANYARD_STORE: `sqlite:${join(server.dir, 'lanyard.db')}`, PORT: String(await freePort()) });
  t.equal(run.code, 1, 'startup fails');
  t.match(run.stderr, `signing key ${row.kid}: cannot decrypt the stored private key`);
  t.match(run.stderr, /key-encryption key is wrong or the record was tampered with/);
  const check = new Database(join(server.dir, 'lanyard.db'), { readonly: true });
  t.equal((check.prepare('SELECT count(*) AS n FROM signing_keys').get() as { n: number }).n, before, 'no new key was made');
  check.close();
});
