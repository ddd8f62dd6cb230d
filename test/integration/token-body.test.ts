import t from 'tap';
import { HttpBrowser } from '../helpers/http-browser.js';
import { serveProcess, sharedStore } from '../helpers/instances.js';
import { until } from '../helpers/workers.js';
import { DEMO_CLIENT } from '../helpers/relying-party.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';

/**
 * SPEC: POST /oauth/token — parameters are sent as URL parameters. Lanyard's shim (token-request.ts) reads
 * the body to merge them in and hands the result to oidc-provider as an unread request stream, the way the
 * library parses bodies itself; a body read upstream made it warn "already parsed request body detected"
 * on the first token request of every process. A real `lanyard serve` child exchanges codes sent in the
 * URL, in the body, and split between both, and prints no such warning.
 */

const basic = `Basic ${Buffer.from(`${DEMO_CLIENT.id}:${DEMO_CLIENT.secret}`).toString('base64')}`;

t.test('token requests with URL parameters and with a form body: both work, without the library\'s warning', async (t) => {
  const shared = await sharedStore(t, 'sqlite');
  // Codes come from an in-process instance (the issuer); the child on the same store exchanges them.
  const issuer = await shared.start(t, { first: true });
  const serve = await serveProcess(t, shared);
  const code = async (state: string) => {
    const q = new URLSearchParams({
      client_id: DEMO_CLIENT.id, redirect_uri: DEMO_CLIENT.redirectUri, response_type: 'code', scope: 'openid', state,
    });
    const callback = await signIn(new HttpBrowser(), issuer.url, `${issuer.url}/oauth/authorize?${q.toString()}`, TEACHER);
    return callback.searchParams.get('code')!;
  };
  const exchange = async (query: Record<string, string>, body?: Record<string, string>) => {
    const qs = new URLSearchParams(query).toString();
    const res = await fetch(`${serve.origin}/oauth/token${qs ? `?${qs}` : ''}`, {
      method: 'POST',
      headers: { authorization: basic, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(body ? { body: new URLSearchParams(body).toString() } : {}),
    });
    return { status: res.status, json: await res.json() as Record<string, unknown> };
  };
  const params = (c: string) => ({ grant_type: 'authorization_code', code: c, redirect_uri: DEMO_CLIENT.redirectUri });

  const inUrl = await exchange(params(await code('url')));
  t.equal(inUrl.status, 200, 'parameters in the URL, no body');
  t.type(inUrl.json.id_token, 'string');

  const inBody = await exchange({}, params(await code('body')));
  t.equal(inBody.status, 200, 'parameters in a form body');
  t.type(inBody.json.id_token, 'string');

  const { grant_type: grantType, ...rest } = params(await code('both'));
  const split = await exchange({ grant_type: grantType }, rest);
  t.equal(split.status, 200, 'grant_type in the URL, the rest in the body');
  t.type(split.json.refresh_token, 'string');

  const refreshed = await exchange({ grant_type: 'refresh_token', refresh_token: split.json.refresh_token as string });
  t.equal(refreshed.status, 200, 'a refresh with its parameters in the URL');

  const twice = await exchange({ grant_type: grantType }, { grant_type: grantType, ...rest });
  t.equal(twice.status, 400, 'a parameter in both places is a duplicate (oidc-provider still checks the merged form)');
  t.equal(twice.json.error, 'invalid_request');

  // The child writes its lines a moment later (src/logging.ts serverLogStream), in order: all four answers'.
  const issued = () => serve.output().split('"event":"token.issued"').length - 1;
  await until(() => issued() >= 4, 'the four token responses\' lines', 5_000).catch(() => {});
  t.equal(issued(), 4, 'the child logged its token responses (its output is read)');
  t.notMatch(serve.output(), /already parsed request body/, 'no warning about an already parsed body');
});
