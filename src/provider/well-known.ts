import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import { sendStaticJson, type StaticJson, staticJson } from '../http/static-json.js';
import type { KeySet } from '../keys/key-manager.js';
import { jwksDocument } from '../keys/jwks.js';
import { nextRotation } from '../keys/policy.js';
import { discoveryDocument } from './discovery.js';
import { ROUTES } from './paths.js';
import type { ProviderHost } from './provider-host.js';

const MAX_CACHE_SECONDS = 60 * 60;
/** Short, so that a key withdrawn in an emergency (`keys rotate --now`) stops being trusted quickly. */
const JWKS_MAX_CACHE_SECONDS = 5 * 60;

/**
 * Discovery and key set: public, cacheable, readable cross-origin (browser-based relying parties). Both are
 * served from bytes made once (the key set's again only when the keys change), with an ETag.
 */
export function wellKnownRoutes(
  app: FastifyInstance,
  host: ProviderHost,
  clock: Clock,
  issuer: string,
  serviceDocumentation: string,
): void {
  const discovery = staticJson(discoveryDocument(issuer, serviceDocumentation));
  app.get(ROUTES.discovery, async (req, reply) => {
    reply.header('Access-Control-Allow-Origin', '*').header('Cache-Control', `public, max-age=${MAX_CACHE_SECONDS}`);
    return sendStaticJson(req, reply, discovery, 'application/json; charset=utf-8');
  });

  let jwks: { keys: KeySet; doc: StaticJson } | undefined;
  app.get(ROUTES.jwks, async (req, reply) => {
    const { keys } = host; // a new set object whenever the provider is rekeyed
    if (jwks?.keys !== keys) jwks = { keys, doc: staticJson(jwksDocument(keys.published)) };
    // Never cached past the next rotation instant (the new key must be fetched from then on).
    const now = clock.now();
    const untilRotation = Math.floor((nextRotation(now).getTime() - now.getTime()) / 1000);
    reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Cache-Control', `public, max-age=${Math.max(0, Math.min(JWKS_MAX_CACHE_SECONDS, untilRotation))}`);
    return sendStaticJson(req, reply, jwks.doc, 'application/jwk-set+json; charset=utf-8');
  });
}
