import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errors } from 'oidc-provider';
import t from 'tap';
import { oidcAdapterFactory } from '../../../adapters/oidc-adapter.js';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { ManualClock } from '../../../src/clock.js';

/**
 * oidc-provider finds a code, checks `consumed`, and calls consume() later. Two token requests with the same
 * code can both pass that check (two instances on one store, or any await in between); the adapter's
 * consume must then fail the second one with invalid_grant and revoke the grant, like a later replay.
 */
t.test('two requests that both found the code unconsumed: the second consume is invalid_grant and revokes the grant', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-adapter-'));
  const store = openSqliteStore(join(dir, 'lanyard.db'), new ManualClock());
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });
  const Adapter = oidcAdapterFactory(store.oidc);
  const codes = new Adapter('AuthorizationCode');
  await codes.upsert('code-1', { grantId: 'grant-1', accountId: 'u1' } as never, 600);
  await new Adapter('AccessToken').upsert('at-1', { grantId: 'grant-1' } as never, 600);
  await new Adapter('Grant').upsert('grant-1', { accountId: 'u1' } as never, 600);

  const [a, b] = await Promise.all([codes.find('code-1'), codes.find('code-1')]);
  t.equal(a?.consumed, undefined, 'request A sees it unconsumed');
  t.equal(b?.consumed, undefined, 'request B sees it unconsumed');

  await t.resolves(codes.consume('code-1'), 'A consumes it');
  const lost = await codes.consume('code-1').then(() => undefined, (err: unknown) => err);
  t.ok(lost instanceof errors.InvalidGrant, 'B is refused with invalid_grant');
  t.equal((lost as errors.InvalidGrant).error_detail, 'authorization code already consumed', 'with the detail oidc-provider logs');
  t.equal(await new Adapter('AccessToken').find('at-1'), undefined, 'tokens issued under the grant are revoked');
  t.equal(await new Adapter('Grant').find('grant-1'), undefined, 'and the grant itself');
});

t.test('a refresh token consumed twice: the second is invalid_grant with its own wording', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-adapter-'));
  const store = openSqliteStore(join(dir, 'lanyard.db'), new ManualClock());
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });
  const tokens = new (oidcAdapterFactory(store.oidc))('RefreshToken');
  await tokens.upsert('rt-1', { grantId: 'grant-2' } as never, 600);
  await tokens.consume('rt-1');
  const err = await tokens.consume('rt-1').then(() => undefined, (e: unknown) => e as errors.InvalidGrant);
  t.equal(err?.error, 'invalid_grant');
  t.equal(err?.error_detail, 'refresh token already consumed');
});
