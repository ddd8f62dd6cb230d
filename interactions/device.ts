import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The device cookie: a random id that tells one classroom tablet from another, so that guessing from
 * elsewhere cannot lock a pupil out of their own device (src/accounts/login-throttle.ts). It carries no
 * account information and proves nothing by itself.
 */
export const DEVICE_COOKIE = 'lanyard_device';
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60; // browsers cap cookie lifetimes at 400 days

export function deviceId(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === DEVICE_COOKIE && value && /^[A-Za-z0-9_-]{22}$/.test(value)) return value;
  }
  return undefined;
}

/** Makes sure the browser has a device cookie (set on the login screens). */
export function ensureDeviceCookie(req: FastifyRequest, reply: FastifyReply): void {
  if (deviceId(req)) return;
  const secure = req.protocol === 'https' ? '; Secure' : '';
  reply.raw.appendHeader('Set-Cookie',
    `${DEVICE_COOKIE}=${randomBytes(16).toString('base64url')}; Path=/interaction; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure}`);
}
