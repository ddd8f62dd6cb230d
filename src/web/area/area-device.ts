import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS, type DeviceCookies } from '../../accounts/device-cookies.js';
import type { AreaCookies } from './area-cookies.js';

/**
 * The sign-in screens' device cookie (src/accounts/device-cookies.ts) lives on /interaction, so a signed-in area
 * gives the browser its own on the area's path, signed the same way (purpose `device`) and read by the same
 * DeviceCookies: a known device is its own source for the guessing protection, so guessing from elsewhere
 * cannot slow someone on their own laptop.
 */
export function ensureAreaDevice(devices: DeviceCookies, cookies: AreaCookies, req: FastifyRequest, reply: FastifyReply): void {
  const value = devices.valueToSet(req);
  if (value) cookies.set(reply, DEVICE_COOKIE, value, DEVICE_COOKIE_MAX_AGE_SECONDS);
}
