import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionResults } from 'oidc-provider';
import type { Store } from '../adapters/store.js';
import type { ClassLinkService } from '../src/accounts/class-links.js';
import type { HelpCodes } from '../src/accounts/help-codes.js';
import type { LoginThrottle } from '../src/accounts/login-throttle.js';
import type { AuditRecorder } from '../src/audit/audit-recorder.js';
import type { DeviceCookies } from '../src/accounts/device-cookies.js';
import type { Clock } from '../src/clock.js';
import type { ClientRegistry } from '../src/clients/client-registry.js';
import type { ProviderHost } from '../src/provider/provider-host.js';
import { expiredPage } from '../src/web/error-page.js';
import { sendHtml } from '../src/web/http.js';
import { translatorFor } from '../src/web/i18n/choose-locale.js';

export interface InteractionDeps {
  host: ProviderHost;
  store: Store;
  clients: ClientRegistry;
  /** Secrets for CSRF tokens and badge tickets: the cookie keys, the first signs, all verify. */
  cookieKeys: readonly string[];
  throttle: LoginThrottle;
  /** The device and classroom-device cookies (the guessing protection's sources). */
  devices: DeviceCookies;
  clock: Clock;
  /** Help codes staff give pupils (src/accounts/help-codes.ts). */
  helpCodes: HelpCodes;
  /** Class links a teacher shows (src/accounts/class-links.ts): whether the browser's class link is still live. */
  classLinks: ClassLinkService;
  /** The issuer: the screens answer only under its host (src/web/issuer-host.ts). */
  issuer: string;
  /** Every sign-in, and every failed one, goes into the school's audit trail (interactions/audit-sign-in.ts). */
  audit: AuditRecorder;
}

export type Details = Awaited<ReturnType<ProviderHost['provider']['interactionDetails']>>;

export { sendHtml };

/**
 * The interaction behind /interaction/:uid, or undefined after answering "sign-in expired" (no cookie,
 * unknown or finished interaction, or a uid that does not match the browser's interaction cookie).
 */
export async function loadInteraction(
  deps: InteractionDeps,
  req: FastifyRequest<{ Params: { uid: string } }>,
  reply: FastifyReply,
): Promise<Details | undefined> {
  try {
    const details = await deps.host.provider.interactionDetails(req.raw, reply.raw);
    if (details.uid === req.params.uid) return details;
  } catch {
    // SessionNotFound and friends: the interaction is gone.
  }
  sendHtml(reply, 400, expiredPage(translatorFor(req), req.url));
  return undefined;
}

/** Finishes the interaction and sends the browser back to oidc-provider (303, SPEC flow step 3). */
export async function finish(deps: InteractionDeps, req: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
  const to = await deps.host.provider.interactionResult(req.raw, reply.raw, result, { mergeWithLastSubmission: false });
  return reply.header('Cache-Control', 'no-store').redirect(to, 303);
}
