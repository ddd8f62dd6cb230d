import type { FastifyInstance } from 'fastify';

/**
 * Headers on every response, set on the raw response before anything else runs so that pages rendered by
 * oidc-provider get them too: no framing (anti-clickjacking), no MIME sniffing, no referrer leaks, a strict
 * content security policy (no inline script; assets from Lanyard only).
 */
export function hardenResponses(app: FastifyInstance, secureTransport: boolean): void {
  app.addHook('onRequest', async (_req, reply) => {
    const res = reply.raw;
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Content-Security-Policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    if (secureTransport) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
  });
}
