import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Whether a cookie set in answer to `req` is Secure: when the issuer is https (browsers reach Lanyard by
 * https then, whatever the last hop was, such as a TLS proxy Lanyard was not told to trust), or when this
 * request came by https. The app decorates itself with `lanyard.secureCookies` (src/app.ts).
 */
export const secureCookieFor = (req: FastifyRequest): boolean =>
  req.protocol === 'https' || (req.server as { lanyard?: { secureCookies?: boolean } }).lanyard?.secureCookies === true;

/**
 * Lanyard's own cookies (device, classroom device, remembered school, developer area): always HttpOnly and
 * SameSite=Lax (a link from an email or another site must open a signed-in page; cross-site posts carry
 * none), Secure on https (secureCookieFor). Written with appendHeader on the raw response, so several can be
 * set on one reply without one replacing another. `maxAge` undefined: a browser-session cookie; 0 with an
 * empty value clears it.
 */
export function setCookie(reply: FastifyReply, c: { name: string; value: string; path: string; maxAge?: number | undefined; secure: boolean }): void {
  reply.raw.appendHeader('Set-Cookie', `${c.name}=${c.value}; Path=${c.path}${c.maxAge === undefined ? '' : `; Max-Age=${c.maxAge}`}; HttpOnly; SameSite=Lax${
    c.secure ? '; Secure' : ''}`);
}
