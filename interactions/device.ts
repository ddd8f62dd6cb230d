import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Counters } from '../adapters/store.js';
import type { Attempt } from '../src/accounts/login-throttle.js';
import type { TrustedDevice, TrustedDevices } from '../src/accounts/trusted-devices.js';
import { readCookie, signValue, verifySignedValue } from '../src/http/signed-value.js';

/**
 * The two device cookies of the sign-in screens (src/accounts/login-throttle.ts):
 * - `lanyard_device`: a random id, signed by Lanyard, that tells one browser from another, so guessing from
 *   elsewhere cannot slow a pupil on their own tablet. Each is a fresh source for the guessing protection,
 *   so one IP address is given at most `newDevicesPerIpPerHour` of them. Older cookies (bare ids, 0.1.0)
 *   still identify devices already known for an account, but count as unsigned.
 * - `lanyard_classroom`: the credential of a trusted classroom device (src/accounts/trusted-devices.ts),
 *   set when a member of staff marks the device; valid while its record is.
 */
export const DEVICE_COOKIE = 'lanyard_device';
export const CLASSROOM_COOKIE = 'lanyard_classroom';
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60; // browsers cap cookie lifetimes at 400 days
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

  /** Makes sure the browser has a signed device cookie (on the sign-in screens), within the IP's allowance. */
  async ensure(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (this.device(req)?.signed) return;
    const minted = await this.d.counters.hitCounter(`device-minted:${req.ip}`, 60 * 60);
    if (minted.count > this.d.newDevicesPerIpPerHour) return; // counted as its IP address until the hour is over
    const value = signValue(this.d.cookieKeys, 'device', randomBytes(16).toString('base64url'));
    reply.raw.appendHeader('Set-Cookie', cookie(req, DEVICE_COOKIE, value, '/interaction', MAX_AGE_SECONDS));
  }

  /** The trusted classroom device this browser is (of `organisationId`, when given), or undefined. */
  async trusted(req: FastifyRequest, organisationId?: string): Promise<TrustedDevice | undefined> {
    const value = readCookie(req.headers.cookie, CLASSROOM_COOKIE);
    const payload = value && verifySignedValue(this.d.cookieKeys, 'classroom', value);
    if (!payload) return undefined;
    const [org, id] = payload.split('~');
    if (!org || !id || (organisationId !== undefined && org !== organisationId)) return undefined;
    return this.d.trustedDevices.active(org, id);
  }

  /** Makes this browser the trusted device `device` (the record exists already). */
  setTrusted(req: FastifyRequest, reply: FastifyReply, device: TrustedDevice): void {
    const value = signValue(this.d.cookieKeys, 'classroom', `${device.organisationId}~${device.id}`);
    reply.raw.appendHeader('Set-Cookie', cookie(req, CLASSROOM_COOKIE, value, '/', MAX_AGE_SECONDS));
  }

  clearTrusted(req: FastifyRequest, reply: FastifyReply): void {
    reply.raw.appendHeader('Set-Cookie', cookie(req, CLASSROOM_COOKIE, '', '/', 0));
  }
}

const cookie = (req: FastifyRequest, name: string, value: string, path: string, maxAge: number) =>
  `${name}=${value}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${req.protocol === 'https' ? '; Secure' : ''}`;
