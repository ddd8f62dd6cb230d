import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Counters } from '../../adapters/store.js';
import type { Attempt } from './login-throttle.js';
import type { TrustedDevice, TrustedDevices } from './trusted-devices.js';
import { clientAddressKey, type RateLimitKey } from '../http/rate-limit-key.js';
import { secureCookieFor, setCookie } from '../http/cookie-header.js';
import { readCookie, signValue, verifySignedValue } from '../http/signed-value.js';

/**
 * The two device cookies of the sign-in screens (src/accounts/login-throttle.ts):
 * - `lanyard_device`: a random id, signed by Lanyard, that tells one browser from another, so guessing from
 *   elsewhere cannot slow a pupil on their own tablet. Each is a fresh source for the guessing protection,
 *   so one IP address may bring at most `newDevicesPerIpPerHour` new ones an hour to a sign-in (source()).
 *   Older cookies (bare ids, 0.1.0) are signed as they are on the next sign-in screen.
 * - `lanyard_classroom`: the credential of a trusted classroom device (src/accounts/trusted-devices.ts),
 *   set when a member of staff marks the device; valid while its record is.
 */
export const DEVICE_COOKIE = 'lanyard_device';
export const CLASSROOM_COOKIE = 'lanyard_classroom';
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60; // browsers cap cookie lifetimes at 400 days
const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

export interface DeviceDeps {
  cookieKeys: readonly string[];
  counters: Counters;
  trustedDevices: TrustedDevices;
  newDevicesPerIpPerHour: number;
}

export class DeviceCookies {
  constructor(private readonly d: DeviceDeps) {}

  /** The browser's device, when it has a device cookie. */
  device(req: FastifyRequest): Attempt['device'] {
    const value = readCookie(req.headers.cookie, DEVICE_COOKIE);
    if (!value) return undefined;
    if (DEVICE_ID.test(value)) return { id: value, signed: false };
    const id = verifySignedValue(this.d.cookieKeys, 'device', value);
    return id && DEVICE_ID.test(id) ? { id, signed: true } : undefined;
  }

  /**
   * Makes sure the browser has a signed device cookie (on the sign-in screens). An older bare id is signed
   * as it is, so a device known before the upgrade stays known. Costs nothing here: a device is counted
   * against its address's allowance when it is first used to sign in (source()), so requests that never
   * keep cookies cannot use the allowance up.
   */
  ensure(req: FastifyRequest, reply: FastifyReply): void {
    const value = this.valueToSet(req);
    if (value) cookie(req, reply, DEVICE_COOKIE, value, '/interaction', DEVICE_COOKIE_MAX_AGE_SECONDS);
  }

  /**
   * The signed device cookie this browser should be given (its bare id signed as it is, or a new id), or
   * undefined when it has one already. The developer area sets it on its own path (src/developer/developer-device.ts).
   */
  valueToSet(req: FastifyRequest): string | undefined {
    const current = this.device(req);
    if (current?.signed) return undefined;
    return signValue(this.d.cookieKeys, 'device', current?.id ?? randomBytes(16).toString('base64url'));
  }

  /**
   * The device as a source for the guessing protection. A signed device is its own source once it has been
   * counted against its address's allowance (`newDevicesPerIpPerHour` new devices an hour; then 30 days
   * without counting again); past the allowance it counts as its address until the hour is over.
   */
  async source(req: FastifyRequest): Promise<Attempt['device']> {
    const device = this.device(req);
    if (!device?.signed) return device;
    const used = `device-used:${device.id}`;
    if (await this.d.counters.peekCounter(used)) return device;
    const minted = await this.d.counters.hitCounter(`device-minted:${clientAddressKey(req)}`, 60 * 60);
    if (minted.count > this.d.newDevicesPerIpPerHour) return { id: device.id, signed: false };
    await this.d.counters.hitCounter(used, 30 * 24 * 60 * 60);
    return device;
  }

  /** The trusted classroom device this browser is (of `organisationId`, when given), or undefined. */
  async trusted(req: FastifyRequest, organisationId?: string): Promise<TrustedDevice | undefined> {
    const credential = classroomCredential(this.d.cookieKeys, req);
    if (!credential || (organisationId !== undefined && credential.organisationId !== organisationId)) return undefined;
    return this.d.trustedDevices.active(credential.organisationId, credential.id);
  }

  /** Makes this browser the trusted device `device` (the record exists already). */
  setTrusted(req: FastifyRequest, reply: FastifyReply, device: TrustedDevice): void {
    const value = signValue(this.d.cookieKeys, 'classroom', `${device.organisationId}~${device.id}`);
    cookie(req, reply, CLASSROOM_COOKIE, value, '/', DEVICE_COOKIE_MAX_AGE_SECONDS);
  }

  clearTrusted(req: FastifyRequest, reply: FastifyReply): void {
    cookie(req, reply, CLASSROOM_COOKIE, '', '/', 0);
  }
}

/**
 * What a classroom-device credential claims (organisation and record), when its signature holds; whether the
 * record is still active is the store's to say (DeviceCookies.trusted).
 */
export function classroomCredential(cookieKeys: readonly string[], req: FastifyRequest): { organisationId: string; id: string } | undefined {
  const value = readCookie(req.headers.cookie, CLASSROOM_COOKIE);
  const [organisationId, id] = (value && verifySignedValue(cookieKeys, 'classroom', value))?.split('~') ?? [];
  return organisationId && id ? { organisationId, id } : undefined;
}

const cookie = (req: FastifyRequest, reply: FastifyReply, name: string, value: string, path: string, maxAge: number) =>
  setCookie(reply, { name, value, path, maxAge, secure: secureCookieFor(req) });

/** How long the rate-limit key trusts what the store said of a credential (the store is read once per credential and window). */
export const DEVICE_KEY_CACHE_MS = 5_000;
/** At most this many credentials remembered at once; past it the memory starts again (it is only a saving). */
const DEVICE_KEY_CACHE_SIZE = 10_000;

/**
 * A trusted classroom device spends a budget of its own, so traffic from the rest of the school's address
 * never holds it up (docs/security.md → Rate limits). Only a credential the store knows and has not revoked
 * counts: a forged, revoked or made-up one spends its address's budget like any other request, so holding
 * such cookies never buys more requests. Only requests that carry a validly signed credential read the store,
 * and what it said of each credential is kept for DEVICE_KEY_CACHE_MS (a revocation reaches the budgets within
 * that), so a credential sent again and again costs one read a window, not one a request.
 */
export function classroomDeviceKey(
  cookieKeys: readonly string[], trustedDevices: Pick<TrustedDevices, 'active'>, fallback: RateLimitKey = clientAddressKey,
  now: () => number = Date.now,
): RateLimitKey {
  const keys = new WeakMap<FastifyRequest, Promise<string>>();
  const known = new Map<string, { active: Promise<boolean>; until: number }>();
  const isActive = (organisationId: string, id: string): Promise<boolean> => {
    const name = `${organisationId}~${id}`;
    const at = now();
    const cached = known.get(name);
    if (cached && cached.until > at) return cached.active;
    if (known.size >= DEVICE_KEY_CACHE_SIZE) known.clear();
    const active = trustedDevices.active(organisationId, id).then((d) => d !== undefined);
    known.set(name, { active, until: at + DEVICE_KEY_CACHE_MS });
    active.catch(() => known.delete(name)); // a store failure is not remembered
    return active;
  };
  const keyOf = async (req: FastifyRequest): Promise<string> => {
    const claimed = classroomCredential(cookieKeys, req);
    return claimed && await isActive(claimed.organisationId, claimed.id) ? `classroom:${claimed.organisationId}~${claimed.id}` : fallback(req);
  };
  return (req) => {
    let key = keys.get(req);
    if (!key) keys.set(req, key = keyOf(req));
    return key;
  };
}
