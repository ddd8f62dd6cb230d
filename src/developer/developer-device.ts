import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS } from '../accounts/device-cookies.js';
import { area } from './area.js';
import type { DeveloperDeps } from './deps.js';

/**
 * The sign-in screens' device cookie (src/accounts/device-cookies.ts) lives on /interaction, so the developer area gives
 * the browser its own, signed the same way (purpose `device`) and read by the same DeviceCookies: a known
 * device is its own source for the guessing protection, so guessing from elsewhere cannot slow a developer on
 * their own laptop.
 */
export function ensureDeveloperDevice(deps: DeveloperDeps, req: FastifyRequest, reply: FastifyReply): void {
  const value = deps.devices.valueToSet(req);
  if (value) area(deps).cookies.set(reply, DEVICE_COOKIE, value, DEVICE_COOKIE_MAX_AGE_SECONDS);
}
