import type { FastifyInstance } from 'fastify';

/** Response headers as name/value pairs, in the order they are sent. */
export type HeaderPairs = ReadonlyArray<readonly [string, string]>;

/**
 * Headers on every response: no framing (anti-clickjacking), no MIME sniffing, no referrer leaks, a strict
 * content security policy (no inline script; assets from Lanyard only), HSTS over TLS. The pairs are made
 * once; the documents answered before Fastify (src/http/early-answers.ts) send the same ones.
 */
export function securityHeaders(secureTransport: boolean): HeaderPairs {
  return [
    ['X-Frame-Options', 'DENY'],
    ['Content-Security-Policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'no-referrer'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ...(secureTransport ? [['Strict-Transport-Security', 'max-age=31536000'] as const] : []),
  ];
}

/**
 * Sets the security headers on the raw response before anything else runs, so that pages rendered by
 * oidc-provider get them too.
 */
export function hardenResponses(app: FastifyInstance, headers: HeaderPairs): void {
  app.addHook('onRequest', async (_req, reply) => {
    const res = reply.raw;
    for (const [name, value] of headers) res.setHeader(name, value);
  });
}
