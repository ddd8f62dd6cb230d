import t from 'tap';
import { generateClientSecret, hashClientSecret } from '../../src/clients/client-secret.js';
import { writeConfig } from '../helpers/config-file.js';
import { startLanyard } from '../helpers/lanyard.js';
import { DEMO_CALLBACK } from '../helpers/tokens.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

t.test('hashed client secrets: every configured secret authenticates, anything else does not', async (t) => {
  const [first, second] = [generateClientSecret(), generateClientSecret()];
  const config = writeConfig((c) => {
    c.clients[0]!.secret_hashes = [hashClientSecret(first), hashClientSecret(second)];
    delete c.clients[0]!.secrets;
  });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const exchange = async (secret: string) => {
    const authorize = `${lanyard.url}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(DEMO_CALLBACK)}&response_type=code&scope=openid`;
    const callback = await signIn(new HttpBrowser(), lanyard.url, authorize, TEACHER);
    return fetch(`${lanyard.url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic('demo-app', secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: DEMO_CALLBACK }),
    });
  };
  t.equal((await exchange(first)).status, 200, 'the first secret');
  t.equal((await exchange(second)).status, 200, 'the second secret');
  const wrong = await exchange('demo-app-secret');
  t.equal(wrong.status, 401, 'the demo secret is no longer one of them');
  t.equal(((await wrong.json()) as { error: string }).error, 'invalid_client');
  t.notOk(lanyard.logs.some((l) => l.includes(first) || l.includes(second)), 'no secret in the logs');
  const internal = await exchange(lanyard.app.lanyard.clients.internalSecret('demo-app'));
  t.equal(internal.status, 401, 'the internal secret (derived from a key in the store) is never accepted from outside');
  t.equal(((await internal.json()) as { error: string }).error, 'invalid_client');
});
