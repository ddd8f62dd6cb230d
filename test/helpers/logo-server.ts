import { generateKeyPairSync, webcrypto } from 'node:crypto';
import { lookup as systemLookup } from 'node:dns';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import 'reflect-metadata'; // required by @peculiar/x509 (tsyringe)
import * as x509 from '@peculiar/x509';
import type { LogoFetchPolicy } from '../../src/clients/logo-fetcher.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

interface Teardown { teardown(fn: () => unknown): void }

/** A real PNG: 1 × 1, one red pixel. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
export const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>';

/** The names the test resolver knows: the logo server's (allowed to be loopback by the test policy) and a private one. */
export const LOGO_HOST = 'logos.test';
export const PRIVATE_HOST = 'intranet.test';

export interface LogoServer {
  /** https://logos.test:<port> */
  origin: string;
  port: number;
  /** What the server has been asked for, path and query. */
  requests: string[];
  /** The fetcher policy that reaches this server (and refuses every other private address). */
  policy: LogoFetchPolicy;
}

/**
 * An https server on 127.0.0.1 serving logos good and bad, with a certificate made for the test (EC P-256,
 * for logos.test), and the LogoFetcher policy that trusts it: the test resolver sends logos.test to
 * 127.0.0.1 (the one name allowed a private address) and intranet.test to 10.0.0.7.
 */
export async function startLogoServer(t: Teardown): Promise<LogoServer> {
  const { key, cert } = await testCertificate(LOGO_HOST);
  const requests: string[] = [];
  const server: Server = createServer({ key, cert }, (req, res) => {
    const url = new URL(req.url ?? '/', `https://${LOGO_HOST}`);
    requests.push(url.pathname + url.search);
    const send = (type: string, body: Buffer | string) => { res.writeHead(200, { 'content-type': type }); res.end(body); };
    switch (url.pathname) {
      case '/logo.png': return send('image/png', PNG_1X1);
      case '/logo.gif': return send('image/gif', GIF_1X1);
      // A PNG said to be SVG, and SVG said to be PNG: the bytes decide.
      case '/logo-mislabelled': return send('image/svg+xml', PNG_1X1);
      case '/logo.svg': return send('image/png', SVG);
      case '/page.html': return send('text/html', '<!doctype html><p>Not an image</p>');
      case '/big.png': return send('image/png', Buffer.concat([PNG_1X1, Buffer.alloc(300 * 1024)]));
      // No Content-Length: the limit holds while the bytes arrive.
      case '/big-chunked.png': {
        res.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 40; i += 1) res.write(i === 0 ? PNG_1X1 : Buffer.alloc(8 * 1024));
        return res.end();
      }
      case '/slow.png': return undefined; // never answers
      case '/loop': {
        res.writeHead(301, { location: '/loop' });
        return res.end();
      }
      case '/redirect': {
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/logo.png' });
        return res.end();
      }
      default: res.writeHead(404, { 'content-type': 'text/plain' }); return res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  const { port } = server.address() as AddressInfo;
  const lookup = ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    const fixed = hostname === LOGO_HOST ? '127.0.0.1' : hostname === PRIVATE_HOST ? '10.0.0.7' : undefined;
    if (!fixed) return systemLookup(hostname, options, callback);
    return callback(null, [{ address: fixed, family: 4 }]);
  }) as unknown as typeof systemLookup;
  return { origin: `https://${LOGO_HOST}:${port}`, port, requests, policy: { privateHosts: [LOGO_HOST], lookup, ca: cert, timeoutMs: 1_000 } };
}

/** A self-signed certificate for `host` (its own authority: the client trusts it as such). */
async function testCertificate(host: string): Promise<{ key: string; cert: string }> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = {
    privateKey: await privateKey.toCryptoKey(alg, true, ['sign']),
    publicKey: await publicKey.toCryptoKey(alg, true, ['verify']),
  } as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['keys'];
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01', name: `CN=${host}`, notBefore: new Date(now - 60_000), notAfter: new Date(now + 3_600_000), keys,
    signingAlgorithm: alg,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: host }])],
  });
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert: cert.toString('pem') };
}
