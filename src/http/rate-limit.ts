import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Counters } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { isStoreUnavailable } from '../errors.js';
import { ROUTES } from '../routes.js';
import { clientAddressKey, type RateLimitKey } from './rate-limit-key.js';
import type { Budget, RateLimitPolicy } from './rate-limit-policy.js';
import { type RateLimitAnswer, type RateLimitPages, sendStoreUnavailable, sendTooManyRequests } from './rate-limit-reply.js';
import { storeCounters } from './rate-limit-store.js';

export interface RateLimitDeps {
  counters: Counters;
  clock: Clock;
  policy: RateLimitPolicy;
  /** Whose budget a request spends; the client address by default (rate-limit-key.ts). */
  key?: RateLimitKey;
  /** The pages a browser is answered with (the web layer's). */
  pages: RateLimitPages;
}

type Group = keyof RateLimitPolicy;

/** How each group answers a refusal (rate-limit-reply.ts): the sign-in screens with a page, the endpoint by Accept. */
const ANSWERS: Record<Group, RateLimitAnswer> = { authorize: 'negotiate', interactionPages: 'page', classLink: 'page' };

/**
 * The requests that make Lanyard store or look up something for anyone who asks (docs/security.md → Rate limits):
 * the authorization endpoint, whatever the method (each anonymous request stores an interaction), the
 * sign-in screens, and opening a class link (a typed or scanned code: never enumerated). The path is compared exactly, as isProviderPath does, so no spelling of a path reaches
 * the provider without passing here. Resuming (/oauth/authorize/:uid) needs a live interaction's cookie and
 * adds nothing, and login POSTs are budgeted by the login throttle (src/accounts/login-throttle.ts).
 */
export function rateLimitGroup(method: string, url: string): Group | undefined {
  const path = url.split('?', 1)[0]!;
  if (path === ROUTES.authorization) return 'authorize';
  if ((method === 'GET' || method === 'HEAD') && path.startsWith(`${ROUTES.interaction}/`)) return 'interactionPages';
  if (((method === 'GET' || method === 'HEAD') && path.startsWith(`${ROUTES.classLink}/`)) || (method === 'POST' && path === ROUTES.classLink)) return 'classLink';
  return undefined;
}

/**
 * Per-client rate limits with @fastify/rate-limit, counted in the store so they hold across instances.
 * Call it BEFORE mountProvider: Fastify runs onRequest hooks in the order they were added, and
 * oidc-provider answers inside middie's onRequest hook, so a limit added after it would never see an
 * authorization request. Over budget: 429 with Retry-After. The store failing while counting: 503 with
 * Retry-After; the request is neither let through uncounted nor answered 500.
 */
export async function rateLimits(app: FastifyInstance, deps: RateLimitDeps): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false, // only the limiters below, never a default budget on every route
    skipOnError: false, // a store failure is an error (503), not a free pass
    store: storeCounters(deps.counters, deps.clock, (key, max) => {
      app.log.warn({ event: 'rate_limit.exceeded', key, max }, 'rate limit reached: answering 429 until the window ends');
    }),
  });
  const key = deps.key ?? clientAddressKey;
  const limiter = (budget: Budget) => app.createRateLimit({
    max: budget.max,
    timeWindow: budget.windowSeconds * 1000,
    keyGenerator: async (req: FastifyRequest) => `${budget.name}:${await key(req)}`,
  });
  const limiters: Record<Group, ReturnType<typeof limiter>[]> = {
    authorize: deps.policy.authorize.map(limiter),
    interactionPages: deps.policy.interactionPages.map(limiter),
    classLink: deps.policy.classLink.map(limiter),
  };

  app.addHook('onRequest', async (req, reply) => {
    const group = rateLimitGroup(req.method, req.url);
    if (!group) return;
    const answer = ANSWERS[group];
    try {
      // In order, shortest window first: a request refused by one budget is not counted in the next.
      for (const check of limiters[group]) {
        const result = await check(req);
        if (!result.isAllowed && result.isExceeded) {
          return sendTooManyRequests(req, reply, Math.max(1, result.ttlInSeconds), answer, deps.pages);
        }
      }
    } catch (err) {
      if (!isStoreUnavailable(err)) throw err;
      req.log.warn({ event: 'store.unavailable', err: (err as Error).cause ?? err }, 'store unavailable while rate limiting: answered 503');
      return sendStoreUnavailable(req, reply, answer, deps.pages);
    }
    return undefined;
  });
}
