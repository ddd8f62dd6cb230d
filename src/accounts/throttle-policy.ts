import { THROTTLING_DEFAULTS, withDefaults } from '../config/defaults.js';
import type { ThrottlingConfig } from '../config/schema.js';

/**
 * The numbers of the guessing protection (src/accounts/login-throttle.ts); the configurable ones' defaults are
 * in src/config/defaults.ts. The arithmetic behind them is in docs/security.md → Sign-in protection; in short, for one emoji password
 * (84⁶ ≈ 3.5 × 10¹¹ possibilities):
 * - the unknown-device path of an account allows at most `newDeviceFailureCap` (100, NIST SP 800-63B
 *   §5.2.2) consecutive failures, then stops until staff unlock it; a success restarts the count at most
 *   once a day, so at most 100 × 366 = 36,600 guesses a year get through it (p ≤ 1.1 × 10⁻⁷);
 * - a known device allows `freeAttempts` failures, then waits doubling up to `maxWaitSeconds` (1 h): at
 *   most ~34 guesses a day, 12,400 a year (p ≈ 3.5 × 10⁻⁸), and only from that very device;
 * - trusted classroom devices each count the same way, and all of them together share one count per
 *   account (`trustedDevicesFreeAttempts`, waits up to 15 min): at most ~120 a day, 44,000 a year.
 * Denial is bounded because nothing an attacker does from their own devices touches another source's
 * buckets: known and trusted devices have a bucket per account and device, an unknown device's waits are
 * its own (per account and source, capped at `newDeviceMaxWaitSeconds`), and the only shared limit on the
 * unknown-device path is the consecutive-failure cap.
 */
export interface ThrottlePolicy {
  /** Known and trusted devices: failures per account and device before waits start. */
  freeAttempts: number;
  /** Known and trusted devices: the first wait, doubling with each further failure … */
  baseWaitSeconds: number;
  /** … up to this. */
  maxWaitSeconds: number;
  /** All trusted classroom devices together, per account: failures before waits start … */
  trustedDevicesFreeAttempts: number;
  /** … and the longest wait (from `baseWaitSeconds`, doubling). */
  trustedDevicesMaxWaitSeconds: number;
  /** Unknown devices: failures per account and source before waits start. */
  newDeviceFreeAttempts: number;
  newDeviceBaseWaitSeconds: number;
  /** Short on purpose: a pupil on a new device behind a busy school address never waits longer. */
  newDeviceMaxWaitSeconds: number;
  /** Consecutive unknown-device failures per account and method before that path stops (staff unlock it). */
  newDeviceFailureCap: number;
  /** Failures on any account from one device (a signed device cookie) per window. */
  deviceFailures: number;
  /** Failures on any account from one IP address without a device cookie, per window. */
  ipFailures: number;
  /** Unknown badge codes per source (device, or IP without one) per window. */
  badgeFailures: number;
  /** The window of the per-source budgets above. */
  windowSeconds: number;
  /** New device cookies one IP address is given per hour (each is a fresh source). */
  newDevicesPerIpPerHour: number;
}

/** Not settings: all trusted classroom devices together, per account (see ThrottlePolicy). */
const TRUSTED_DEVICES_FREE_ATTEMPTS = 20;
const TRUSTED_DEVICES_MAX_WAIT_SECONDS = 15 * 60;

/** The policy from the file's `login_throttling` (every field optional; defaults in src/config/defaults.ts). */
export function throttlePolicy(config: ThrottlingConfig = {}): ThrottlePolicy {
  const c = withDefaults(THROTTLING_DEFAULTS, config);
  return {
    freeAttempts: c.free_attempts,
    baseWaitSeconds: c.base_wait_seconds,
    maxWaitSeconds: c.max_wait_seconds,
    trustedDevicesFreeAttempts: TRUSTED_DEVICES_FREE_ATTEMPTS,
    trustedDevicesMaxWaitSeconds: TRUSTED_DEVICES_MAX_WAIT_SECONDS,
    newDeviceFreeAttempts: c.new_device_free_attempts,
    newDeviceBaseWaitSeconds: c.new_device_base_wait_seconds,
    newDeviceMaxWaitSeconds: c.new_device_max_wait_seconds,
    newDeviceFailureCap: c.new_device_failure_cap,
    deviceFailures: c.device_failures,
    ipFailures: c.ip_failures,
    badgeFailures: c.badge_failures,
    windowSeconds: c.window_seconds,
    newDevicesPerIpPerHour: c.new_devices_per_ip_per_hour,
  };
}

/** The policy of a file that sets none of it. */
export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = throttlePolicy();

/** Free failures, then waits from `base` doubling up to `max` (seconds; 0 while free). */
export function backoffSeconds(failures: number, free: number, base: number, max: number): number {
  if (failures < free) return 0;
  return Math.min(base * 2 ** Math.min(failures - free, 30), max);
}
