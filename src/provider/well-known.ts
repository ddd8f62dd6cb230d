import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import { jwksDocument } from '../keys/jwks.js';
import { nextRotation } from '../keys/policy.js';
import { discoveryDocument } from './discovery.js';
import { ROUTES } from './paths.js';
import type { ProviderHost } from './provider-host.js';

const MAX_CACHE_SECONDS = 60 * 60;
/** Short, so that a key withdrawn in an emergency (`keys rotate --now`) stops being trusted quickly. */
const JWKS_MAX_CACHE_SECONDS = 5 * 60;

/** Discovery and key set: public, cacheable, readable cross-origin (browser-based relying parties). */
export function wellKnownRoutes(
  app: FastifyInstance,
  host: ProviderHost,
  clock: Clock,
  issuer: string,
  serviceDocumentation: string,
): void {
  const discovery = discoveryDocument(issuer, serviceDocumentation);
  app.get(ROUTES.discovery, async (_req, reply) => reply
    .header('Access-Control-Allow-Origin', '*')
    .header('Cache-Control', `public, max-age=${MAX_CACHE_SECONDS}`)
    .send(discovery));

  app.get(ROUTES.jwks, async (_req, reply) => {
    // Never cached past the next rotation instant (the new key must be fetched from then on).
    const now = clock.now();
    const untilRotation = Math.floor((nextRotation(now).getTime() - now.getTime()) / 1000);
    return reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Cache-Control', `public, max-age=${Math.max(0, Math.min(JWKS_MAX_CACHE_SECONDS, untilRotation))}`)
      .type('application/jwk-set+json; charset=utf-8')
      .send(jwksDocument(host.keys.published));
  });
}
