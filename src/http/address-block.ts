import { normalizeIP } from '@fastify/rate-limit';

/**
 * The block a client address stands for when counting per source (docs/security.md → Rate limits): an IPv4
 * address as it is, an IPv6 address as its /64 (the block one network gets, so that one host rotating its
 * addresses within it stays one source), IPv4-mapped IPv6 as the IPv4 address. As text: `192.0.2.7`,
 * `2001:db8:1:2::/64`.
 */
export function addressBlock(ip: string): string {
  const start = normalizeIP(ip, 64);
  return start.includes(':') ? `${start}/64` : start;
}
