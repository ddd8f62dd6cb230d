import type { RateLimitsConfig } from '../config/config.js';

/** One budget: at most `max` requests per key in a fixed window of `windowSeconds`. */
export interface Budget {
  /** For logs and counter keys: `authorize.minute`, … */
  name: string;
  max: number;
  windowSeconds: number;
}

/** The budgets of each group of requests, checked in order (README → Rate limits). */
export interface RateLimitPolicy {
  /** GET/POST /oauth/authorize: every anonymous request stores an interaction. */
  authorize: Budget[];
  /** GET /interaction/…: the sign-in screens (they read the store: interaction, organisation search). */
  interactionPages: Budget[];
}

/**
 * Defaults, per client address (README → Rate limits has the arithmetic). A school of 2,000 pupils behind
 * one NAT address, all signing in within one minute, makes about 2,000 authorize requests (4,000 when
 * every app first checks for a session with prompt=none) and 10,000 page views (5 screens each; 16,000 with
 * mistakes and reloads): a third to a half of each budget. Over its busiest hour (the morning sign-in plus
 * five app launches per pupil) it makes about 14,000 authorize requests: under half the hourly budget.
 * The hourly budget is what bounds storage: an interaction lives 15 minutes (src/provider/ttl.ts), so one
 * address can keep at most 2 × 30,000 interactions in the store at a time (a burst at the end of one hour
 * window and another at the start of the next).
 */
export const RATE_LIMIT_DEFAULTS = {
  /** Authorization requests per client address per minute. */
  authorize_per_minute: 10_000,
  /** Authorization requests per client address per hour. */
  authorize_per_hour: 30_000,
  /** Sign-in page views (GET /interaction/…) per client address per minute. */
  interaction_pages_per_minute: 30_000,
} as const satisfies Required<RateLimitsConfig>;

/**
 * The most requests `budgets` let one key make within any `seconds`: fixed windows start at a key's first
 * request, so a span of `seconds` meets at most ⌈seconds / window⌉ + 1 of them; the tightest budget wins.
 * For the authorize budgets and an interaction's lifetime (plus, on SQLite, the sweep interval), it is the
 * most interactions one address can have in the store at once.
 */
export function mostRequestsWithin(budgets: Budget[], seconds: number): number {
  return Math.min(...budgets.map((b) => b.max * (Math.ceil(seconds / b.windowSeconds) + 1)));
}

/** The policy from the config file's `rate_limits` (every field optional; see RATE_LIMIT_DEFAULTS). */
export function rateLimitPolicy(config: RateLimitsConfig = {}): RateLimitPolicy {
  const c = { ...RATE_LIMIT_DEFAULTS, ...config };
  return {
    authorize: [
      { name: 'authorize.minute', max: c.authorize_per_minute, windowSeconds: 60 },
      { name: 'authorize.hour', max: c.authorize_per_hour, windowSeconds: 60 * 60 },
    ],
    interactionPages: [
      { name: 'pages.minute', max: c.interaction_pages_per_minute, windowSeconds: 60 },
    ],
  };
}
