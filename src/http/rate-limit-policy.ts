import { RATE_LIMIT_DEFAULTS, withDefaults } from '../config/defaults.js';
import type { RateLimitsConfig } from '../config/schema.js';

/** One budget: at most `max` requests per key in a fixed window of `windowSeconds`. */
export interface Budget {
  /** For logs and counter keys: `authorize.minute`, … */
  name: string;
  max: number;
  windowSeconds: number;
}

/** The budgets of each group of requests, checked in order (docs/security.md → Rate limits). */
export interface RateLimitPolicy {
  /** GET/POST /oauth/authorize: every anonymous request stores an interaction. */
  authorize: Budget[];
  /** GET /interaction/…: the sign-in screens (they read the store: interaction, organisation search). */
  interactionPages: Budget[];
  /** GET /class/<code> and POST /class: opening a class link (a code is never guessed by enumeration). */
  classLink: Budget[];
}

/**
 * The most requests `budgets` let one key make within any `seconds`: fixed windows start at a key's first
 * request, so a span of `seconds` meets at most ⌈seconds / window⌉ + 1 of them; the tightest budget wins.
 * For the authorize budgets and an interaction's lifetime (plus, on SQLite, the sweep interval), it is the
 * most interactions one address can have in the store at once.
 */
export function mostRequestsWithin(budgets: Budget[], seconds: number): number {
  return Math.min(...budgets.map((b) => b.max * (Math.ceil(seconds / b.windowSeconds) + 1)));
}

/** The policy from the config file's `rate_limits` (every field optional; defaults in src/config/defaults.ts). */
export function rateLimitPolicy(config: RateLimitsConfig = {}): RateLimitPolicy {
  const c = withDefaults(RATE_LIMIT_DEFAULTS, config);
  return {
    authorize: [
      { name: 'authorize.minute', max: c.authorize_per_minute, windowSeconds: 60 },
      { name: 'authorize.hour', max: c.authorize_per_hour, windowSeconds: 60 * 60 },
    ],
    interactionPages: [
      { name: 'pages.minute', max: c.interaction_pages_per_minute, windowSeconds: 60 },
    ],
    classLink: [
      { name: 'class-link.minute', max: c.class_link_per_minute, windowSeconds: 60 },
      { name: 'class-link.hour', max: c.class_link_per_hour, windowSeconds: 60 * 60 },
    ],
  };
}
