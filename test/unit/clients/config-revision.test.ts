import t from 'tap';
import { configRevision, decideRevision, describeRevision, writesClients } from '../../../src/clients/config-revision.js';
import { hashClientSecret } from '../../../src/clients/client-secret.js';
import { movedDemoClient } from '../../../src/config/demo-app.js';
import type { ClientConfig } from '../../../src/config/schema.js';
import { demoConfig } from '../../helpers/config-file.js';

const A: ClientConfig = { client_id: 'a', name: 'A', secrets: ['secret-of-a'], redirect_uris: ['https://a.example/cb'] };
const B: ClientConfig = { client_id: 'b', name: 'B', secret_hashes: [`sha256:${'b'.repeat(43)}`], redirect_uris: ['https://b.example/cb'] };

t.test('the revision: the file\'s number (0 when left out) and a hash of what it writes', async (t) => {
  const r = configRevision({ clients: [A, B] });
  t.equal(r.version, 0, 'no `revision`: 0');
  t.match(r.hash, /^sha256:[0-9a-f]{64}$/);
  t.equal(configRevision({ revision: 7, clients: [A, B] }).version, 7);
  t.equal(configRevision({ revision: 7, clients: [A, B] }).hash, r.hash, 'the number is not part of the hash');
  t.equal(configRevision({ clients: [B, A] }).hash, r.hash, 'the order of the clients in the file does not matter');
  t.equal(configRevision({ clients: [A, { ...B, response_types: ['code'] }] }).hash, r.hash, 'a default written out is the same client');
  t.equal(configRevision({ clients: [{ ...A, secrets: undefined, secret_hashes: [hashClientSecret('secret-of-a')] }, B] }).hash, r.hash,
    'a secret is hashed: the same whichever way the file gives it');
  const changed: [string, ClientConfig[]][] = [
    ['a callback', [{ ...A, redirect_uris: ['https://a.example/other'] }, B]],
    ['a name', [{ ...A, name: 'A2' }, B]],
    ['a secret', [{ ...A, secrets: ['another-secret'] }, B]],
    ['a client fewer', [A]],
  ];
  for (const [what, clients] of changed) t.not(configRevision({ clients }).hash, r.hash, `${what} changes the hash`);
  const school = { slug: 's', name: 'S' };
  t.not(configRevision({ clients: [A, B], organisations: [{ ...school, apps: ['a'] }] }).hash, r.hash, 'a school\'s app list changes it');
  t.equal(configRevision({ clients: [A, B], organisations: [school] }).hash, r.hash, 'schools without app lists do not');
  t.equal(configRevision({ clients: [A, B], config_apps: 'offered' }).hash, r.hash, 'config_apps written out as its default: the same');
  t.not(configRevision({ clients: [A, B], config_apps: 'every_school' }).hash, r.hash, 'apps of every school change it');
});

t.test('the Demo App moved by LANYARD_DEMO_APP is another revision of the demo configuration', async (t) => {
  const demo = demoConfig();
  const moved = { ...demo, clients: movedDemoClient(demo.clients, 8380) };
  t.not(configRevision(moved).hash, configRevision(demo).hash);
  t.equal(configRevision(demoConfig()).hash, configRevision(demo).hash, 'the same file: the same hash');
});

t.test('the decision: newer and first write, older never, the same number with other contents only when nobody runs the store\'s', async (t) => {
  const stored = { version: 2, hash: 'sha256:x', writtenAt: '2027-01-01T00:00:00.000Z', writtenBy: 'h/1/aa' };
  t.equal(decideRevision({ version: 0, hash: 'sha256:y' }, undefined, false), 'first');
  t.equal(decideRevision({ version: 3, hash: 'sha256:y' }, stored, true), 'newer');
  t.equal(decideRevision({ version: 1, hash: 'sha256:x' }, stored, false), 'older', 'older even with the same contents and nobody running the store\'s');
  t.equal(decideRevision({ version: 2, hash: 'sha256:x' }, stored, true), 'same');
  t.equal(decideRevision({ version: 2, hash: 'sha256:y' }, stored, true), 'conflict');
  t.equal(decideRevision({ version: 2, hash: 'sha256:y' }, stored, false), 'adopted');
  t.same(['first', 'newer', 'same', 'adopted', 'conflict', 'older'].filter((o) => writesClients(o as never)), ['first', 'newer', 'same', 'adopted']);
  t.equal(describeRevision({ version: 4, hash: `sha256:${'ab'.repeat(32)}` }), '4 (abababababab)');
});
