import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorPage } from './error-page.js';
import { sendHtml } from './http.js';

/**
 * People's pages answer only under the issuer's host name (docs/operations.md → The address to open). A browser
 * keeps cookies per host name: a sign-in begun at `http://127.0.0.1:3300/` while the issuer is
 * `http://localhost:3300` leaves its cookies on one name and comes back to the other, where they are missing,
 * and lands on an empty page with no error. So a page asked for under any other name is sent to the issuer's
 * origin, same path and query, before anything (a cookie, a store write) happens. Protocol endpoints, the APIs,
 * health and metrics do not call this: programs are told the issuer's URLs by discovery, and keep answering
 * under any name as before.
 *
 * - GET and HEAD: 307, `Cache-Control: no-store`. Temporary, not 308/301: a browser caches a permanent
 *   redirect for good, and an operator who later serves Lanyard under that name (a new issuer) would have
 *   browsers still sent away; 307 keeps the method, so a HEAD stays a HEAD.
 * - Anything else (a form's POST): 400 with a page naming the address to open. Redirecting would lose the body
 *   (301/302/303) or re-send it where its form's cookies are not (307), which fails later and less clearly.
 *
 * The name is Fastify's `req.hostname`: the Host header's, or the last X-Forwarded-Host's when the hop it came
 * from is trusted (LANYARD_TRUST_PROXY). Only the name is compared, as browsers scope cookies (RFC 6265 §8.5:
 * cookies do not isolate ports): instances on other ports of the issuer's name share its cookies, and so does a
 * proxy's port. Neither is the protocol: behind a TLS proxy without LANYARD_TRUST_PROXY every request arrives
 * by http, and an https issuer would send it round for ever.
 */
/** The other names already told of, per server (so once per app, however many areas call pagesAtIssuerHost). */
const toldByServer = new WeakMap<object, Set<string>>();
const toldOf = (server: object): Set<string> => {
  let told = toldByServer.get(server);
  if (!told) toldByServer.set(server, told = new Set());
  return told;
};

/** How many other names one process says it saw (each once): enough to tell a misconfigured proxy, bounded against junk. */
const WRONG_HOSTS_TOLD = 20;

export function pagesAtIssuerHost(scope: FastifyInstance, issuer: string): void {
  const { origin, hostname } = new URL(issuer);
  // A proxy that passes its upstream's name as Host sends every page round this redirect: say so, once per
  // name and server (every area's scope of one app shares its server).
  const told = toldOf(scope.server);
  scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (sameHostName(req.hostname, hostname)) return;
    const seen = req.hostname.toLowerCase().slice(0, 255);
    if (!told.has(seen) && told.size < WRONG_HOSTS_TOLD) {
      told.add(seen);
      req.log.warn({ event: 'request.other_host', host: seen, issuer: origin },
        'a page was asked for under another name than the issuer\'s: sent there (a proxy must pass the Host it was asked for: docs/operations.md → The address to open)');
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      // An absolute-form request target (`GET http://x/y`) is not a path: the front door instead.
      const path = req.url.startsWith('/') && !req.url.startsWith('//') ? req.url : '/';
      return reply.header('Cache-Control', 'no-store').redirect(`${origin}${path}`, 307);
    }
    return sendHtml(reply, 400, wrongAddressPage(origin));
  });
}

/**
 * Whether a request's host name is the issuer's (`URL.hostname`: lower case, an IPv6 address in brackets). Case
 * does not matter; a trailing dot does: `localhost.` is another name to a browser's cookies.
 */
export const sameHostName = (requested: string, issuerHostName: string): boolean => requested.toLowerCase() === issuerHostName;

/** A form sent to another name of Lanyard's host: where to open Lanyard instead. */
export const wrongAddressPage = (origin: string): string => errorPage(
  'Open Lanyard at its own address',
  `This form was sent to Lanyard under another name. Open ${origin} and try again from there.`,
  'wrong_address',
  { href: `${origin}/`, label: `Open ${origin}` },
);
