import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

/**
 * Whose budget a request spends (docs/security.md → Rate limits). A function of the request, so that a request
 * carrying a stronger identity than its address (a trusted classroom device's credential, say) can be
 * given a budget of its own without touching the limiter.
 */
export type RateLimitKey = (req: FastifyRequest) => string | Promise<string>;

/**
 * The default: the client address as Fastify computed it, so LANYARD_TRUST_PROXY decides which
 * X-Forwarded-For hop is believed (a client cannot pick its own address). IPv6 addresses count per /64,
 * the block one network (a school's LAN) gets, so one host cannot dodge its budget by changing addresses
 * within it; IPv4-mapped IPv6 counts as the IPv4 address.
 */
export const clientAddressKey: RateLimitKey = (req) => `ip:${normalizeIP(req.ip, 64)}`;
