/**
 * Bare oidc-provider, configured like Lanyard where it matters for speed, as the baseline Lanyard has to beat:
 * one RSA-4096 key (RS256), Lanyard's lifetimes (src/provider/ttl.ts), a refresh token with every code
 * exchange and a new one on every refresh, client_secret_basic, identity claims in the ID token
 * (conformIdTokenClaims: false), userinfo and revocation on, and the library's own in-memory adapter.
 * Its only sign-in is an interaction that signs the user in and grants `openid` at once, so the bench can
 * get codes. Run as its own process (one process, like oidc-provider out of the box):
 *
 *   BENCH_CLIENT_ID=… BENCH_CLIENT_SECRET=… BENCH_REDIRECT_URI=… node --import tsx bench/bare-provider.ts
 *
 * It prints `listening <port>` on standard output once it answers.
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import Provider, { type Configuration } from 'oidc-provider';
import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';
import LRU from 'oidc-provider/lib/helpers/lru.js';
import { TTL } from '../src/provider/ttl.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

/**
 * The default adapter keeps at most ~1,000–2,000 records (an LRU), so the thousands of codes and refresh
 * tokens the bench makes before using them would be evicted. The same adapter class over the same LRU,
 * only bigger: nothing is ever evicted during a run, and every lookup costs what it costs by default.
 */
const storage = new LRU({ maxSize: 50_000_000 });

/**
 * The usual two-prime RSA-4096 key, given to the library as a JWK, as its documentation shows. Lanyard's
 * keys have four primes (src/keys/rsa-key-pair.ts) and sign faster; the library could be given one too,
 * as Lanyard gives it, through an ExternalSigningKey. The bench's CPU row for the exchange takes each
 * server's own signature out, so that what the two spend besides it compares like for like.
 */
async function rsa4096Jwk(): Promise<Record<string, unknown>> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 4096 });
  return { ...privateKey.export({ format: 'jwk' }), kid: 'bench-1', alg: 'RS256', use: 'sig' };
}

function configuration(jwk: Record<string, unknown>): Configuration {
  return {
    adapter: (model: string) => new MemoryAdapter(model, storage),
    clients: [{
      client_id: env('BENCH_CLIENT_ID'),
      client_secret: env('BENCH_CLIENT_SECRET'),
      redirect_uris: [env('BENCH_REDIRECT_URI')],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }],
    jwks: { keys: [jwk] } as Configuration['jwks'],
    cookies: {
      keys: [randomBytes(32).toString('base64url')],
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    scopes: ['openid'],
    claims: { openid: ['sub', 'given_name', 'family_name', 'email', 'type'] },
    conformIdTokenClaims: false,
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        claims: () => ({ sub, given_name: 'Ada', family_name: 'Bench', email: `${sub}@bench.example`, type: 'student' }),
      };
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      revocation: { enabled: true },
    },
    clientAuthMethods: ['client_secret_basic'],
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    allowOmittingSingleRegisteredRedirectUri: false,
    ttl: { ...TTL },
    issueRefreshToken: async () => true,
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  };
}

let accounts = 0;

/** Signs the browser in as a fresh account and grants `openid` at once: no page, no password. */
async function autoLogin(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    const accountId = `a${++accounts}`;
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope('openid');
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  } catch (err) {
    res.statusCode = 400;
    res.end(String(err));
  }
}

async function main(): Promise<void> {
  const jwk = await rsa4096Jwk();
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => { res.statusCode = 503; res.end(); };
  const server = createServer((req, res) => handle(req, res));
  // Fastify's (Lanyard's) keep-alive timeout, so neither side reconnects more often than the other.
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const provider = new Provider(`http://127.0.0.1:${port}`, configuration(jwk));
  const callback = provider.callback();
  handle = (req, res) => {
    if (req.url?.startsWith('/interaction/')) void autoLogin(provider, req, res);
    else void callback(req, res);
  };
  process.once('SIGTERM', () => process.exit(0)); // a baseline keeps nothing worth a graceful close
  process.stdout.write(`listening ${port}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
