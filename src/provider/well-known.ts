import type { Clock } from '../clock.js';
import type { EarlyAnswers } from '../http/early-answers.js';
import type { HeaderPairs } from '../http/hardening.js';
import { type StaticJsonAnswer, staticJson, staticJsonAnswer } from '../http/static-json.js';
import type { KeySet } from '../keys/key-manager.js';
import { jwksDocument } from '../keys/jwks.js';
import { nextRotation } from '../keys/policy.js';
import { discoveryDocument } from './discovery.js';
import { ROUTES } from '../routes.js';
import type { ProviderHost } from './provider-host.js';

const MAX_CACHE_SECONDS = 60 * 60;
/** Short, so that a key withdrawn in an emergency (`keys rotate --now`) stops being trusted quickly. */
const JWKS_MAX_CACHE_SECONDS = 5 * 60;

/**
 * Discovery and key set: public, cacheable, readable cross-origin (browser-based relying parties). Both are
 * served from bytes made once (the key set's again only when the keys change), with an ETag, and answered
 * before Fastify (src/http/early-answers.ts) with the headers every response carries (`headers`).
 */
export function wellKnownDocuments(
  early: EarlyAnswers,
  o: { host: ProviderHost; clock: Clock; issuer: string; serviceDocumentation: string; headers: HeaderPairs },
): void {
  const headers: HeaderPairs = [...o.headers, ['Access-Control-Allow-Origin', '*']];
  const discovery = staticJsonAnswer(staticJson(discoveryDocument(o.issuer, o.serviceDocumentation)), 'application/json; charset=utf-8', headers);
  const discoveryCache = `public, max-age=${MAX_CACHE_SECONDS}`;
  early.get(ROUTES.discovery, (req, res) => discovery(req, res, discoveryCache));

  let jwks: { keys: KeySet; answer: StaticJsonAnswer } | undefined;
  let rotation = 0; // the next rotation instant (ms), worked out again once it has passed
  early.get(ROUTES.jwks, (req, res) => {
    const { keys } = o.host; // a new set object whenever the provider is rekeyed
    if (jwks?.keys !== keys) {
      jwks = { keys, answer: staticJsonAnswer(staticJson(jwksDocument(keys.published)), 'application/jwk-set+json; charset=utf-8', headers) };
    }
    // Never cached past the next rotation instant (the new key must be fetched from then on).
    const now = o.clock.now().getTime();
    if (now >= rotation) rotation = nextRotation(new Date(now)).getTime();
    const maxAge = Math.max(0, Math.min(JWKS_MAX_CACHE_SECONDS, Math.floor((rotation - now) / 1000)));
    return jwks.answer(req, res, `public, max-age=${maxAge}`);
  });
}
