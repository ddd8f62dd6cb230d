import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import interactions from '../interactions/index.js';
import { userApi } from './api/index.js';
import { notFoundPage, tooManyRequestsPage } from './web/error-page.js';
import { translatorFor } from './web/i18n/choose-locale.js';
import { errorSwitchUrl } from './web/i18n/language-switch.js';
import type { Store } from '../adapters/store.js';
import type { AuditLog } from './audit/audit-log.js';
import { ClassLinkService } from './accounts/class-links.js';
import { HelpCodes } from './accounts/help-codes.js';
import { LoginThrottle, throttlePolicy } from './accounts/login-throttle.js';
import { TrustedDevices } from './accounts/trusted-devices.js';
import { classroomDeviceKey, DeviceCookies } from './accounts/device-cookies.js';
import { classroomDeviceRoutes } from '../interactions/classroom-device.js';
import type { ClientRegistry } from './clients/client-registry.js';
import { LogoFetcher } from './clients/logo-fetcher.js';
import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import { schoolDaySettings } from './config/school-day.js';
import { dashboard } from './dashboard/index.js';
import { developerArea } from './developer/index.js';
import { schoolConsole } from './school/index.js';
import { docsRoute } from './docs/index.js';
import { assetRoutes } from './web/assets.js';
import { clientErrorHandler } from './http/client-error.js';
import { sendJsonError } from './http/json-errors.js';
import { browserGet, negotiatedErrors, SCHOOL_PAGES, sendUnavailablePage } from './web/page-errors.js';
import { healthRoutes } from './http/readiness.js';
import { rateLimits } from './http/rate-limit.js';
import { EarlyAnswers, type TrustProxy } from './http/early-answers.js';
import { logEachRequestOnce, requestIds } from './http/request-log.js';
import { unroutableRequest } from './http/unroutable-request.js';
import { buildSerializer } from './http/serializers.js';
import type { Metrics } from './metrics/metrics.js';
import { metricsRoutes } from './metrics/metrics-routes.js';
import { rateLimitPolicy } from './http/rate-limit-policy.js';
import { hardenResponses, securityHeaders } from './http/hardening.js';
import type { ConfigRevisionWatch } from './clients/config-revision-watch.js';
import type { KeyManager } from './keys/key-manager.js';
import { KeyRotation } from './keys/key-rotation.js';
import { IdentityWatch } from './keys/identity-watch.js';
import type { StoreIdentity } from './keys/store-identity.js';
import { loggerOptions } from './logging.js';
import { authorizePostRoute } from './provider/authorize-post.js';
import { logoutRoute } from './provider/logout.js';
import { mountProvider } from './provider/mount.js';
import { ProviderHost } from './provider/provider-host.js';
import { wellKnownDocuments } from './provider/well-known.js';
import { sendHtml } from './web/http.js';

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  keyManager: KeyManager;
  /** The store's identity at startup (openServices), checked while serving: src/keys/identity-watch.ts. */
  storeIdentity: StoreIdentity;
  clients: ClientRegistry;
  cookieKeys: string[];
  keyEncryptionKey: Buffer;
  /** Prometheus metrics (src/metrics/); openServices makes them, and `store` is already timed into them. */
  metrics: Metrics;
  /** The configuration file's revision against the store's and the other instances' (src/startup/services.ts). */
  configRevision: ConfigRevisionWatch;
  /** The audit recorder (src/startup/services.ts): the areas record into it; its failures go to the app's log. */
  audit: AuditLog;
  /**
   * Where log lines go (default: written to stdout as they come); a serving process gathers them
   * (src/logging.ts serverLogStream), and tests capture them to check that no secret is logged.
   */
  logStream?: DestinationStream;
  /** Fetches apps' logos (default: public https hosts only); tests give one that reaches their loopback server. */
  logoFetcher?: LogoFetcher;
}

export interface LanyardApp extends FastifyInstance {
  lanyard: {
    host: ProviderHost; clients: ClientRegistry; keyRotation: KeyRotation; metrics: Metrics;
    /** The issuer is https: every cookie is Secure (src/http/cookie-header.ts). */
    secureCookies: boolean;
  };
}

/** The Fastify instance with everything mounted. Tests use this; main.ts adds listen and shutdown. */
export async function buildApp(deps: AppDeps): Promise<LanyardApp> {
  const { config, clock, store, metrics } = deps;
  // A hop count, never `true`: trusting every hop would let a client set its own address.
  const trustProxy: TrustProxy = config.trustProxy ? (_address: string, hop: number) => hop < config.trustProxy : false;
  const early = new EarlyAnswers();
  const nextRequestId = requestIds();
  /** Browsers reach an https issuer by https: HSTS, and every cookie Secure. */
  const httpsIssuer = config.issuer.startsWith('https://');
  const headers = securityHeaders(httpsIssuer);
  const app = Fastify({
    serverFactory: early.serverFactory, // discovery and the key set are answered before Fastify (src/http/early-answers.ts)
    genReqId: nextRequestId,
    schemaController: { compilersFactory: { buildSerializer } }, // each response schema compiled once per process
    logger: { ...loggerOptions(config.logLevel), ...(deps.logStream ? { stream: deps.logStream } : {}) },
    trustProxy,
    bodyLimit: 64 * 1024,
    logController: new LogController({ disableRequestLogging: true }), // one line per request instead: src/http/request-log.ts
    clientErrorHandler, // a request the parser cannot read: 400 without a body (HEAD-safe), connection closed
    frameworkErrors: unroutableRequest(headers), // a path the router cannot take: with the security headers
  }) as unknown as LanyardApp;

  const { clients } = deps;
  const identity = new IdentityWatch({ store, clock, identity: deps.storeIdentity, log: app.log });
  deps.keyManager.guardMinting(() => identity.assertIntact());
  const host = new ProviderHost({
    issuer: config.issuer,
    store,
    clients,
    cookieKeys: deps.cookieKeys,
    trustProxy: config.trustProxy,
    log: app.log,
  }, await deps.keyManager.current());
  const keyRotation = new KeyRotation({
    manager: deps.keyManager, host, clock, log: app.log, storeIntact: async () => !(await identity.check()),
  });
  metrics.watchKeys(() => host.keys, clock);
  app.decorate('lanyard', { host, clients, keyRotation, metrics, secureCookies: httpsIssuer });
  app.addHook('onReady', async () => keyRotation.start());
  app.addHook('onClose', async () => keyRotation.stop());
  const { configRevision } = deps;
  metrics.watchConfigRevision(() => configRevision.report());
  const { audit } = deps;
  audit.logTo(app.log);
  metrics.watchAudit(() => audit.stats());
  app.addHook('onReady', async () => configRevision.start(app.log));
  app.addHook('onClose', async () => configRevision.stop());

  // The root's own routes (health, metrics, assets, the guide) and the requests no area's route answers (the
  // protocol endpoints oidc-provider serves) go by what the caller accepts; each area registers its own handler,
  // HTML or JSON, on its own scope (docs/architecture.md → Errors). Set before any plugin registers.
  negotiatedErrors(app, SCHOOL_PAGES, { codes: 'oauth', log: { message: 'unhandled error' }, serverError: 'internal error' });
  logEachRequestOnce(app, metrics.observeRequest); // the first onRequest hook: it sees every request, whoever answers it
  hardenResponses(app, headers);
  early.attach(app, { observe: metrics.observeRequest, nextRequestId, trustProxy });
  const trustedDevices = new TrustedDevices(store, clock);
  // Before mountProvider: onRequest hooks run in the order added, and the provider answers in middie's.
  await rateLimits(app, {
    counters: store, clock, policy: rateLimitPolicy(config.file.rate_limits), key: classroomDeviceKey(deps.cookieKeys, trustedDevices),
    pages: {
      tooManyRequests: (seconds, req) => tooManyRequestsPage(seconds, translatorFor(req), errorSwitchUrl(req.url)),
      sendUnavailable: (reply, req) => sendUnavailablePage(reply, translatorFor(req), errorSwitchUrl(req.url)),
    },
  });
  await mountProvider(app, host);
  wellKnownDocuments(early, { host, clock, issuer: config.issuer, serviceDocumentation: config.serviceDocumentation, headers });
  await authorizePostRoute(app, config.issuer);
  await logoutRoute(app, host, clients, config.issuer);
  await docsRoute(app, config.issuer);
  await userApi(app, { host, store, clients, issuer: config.issuer });
  const throttle = new LoginThrottle(store, clock, throttlePolicy(config.file.login_throttling));
  const devices = new DeviceCookies({
    cookieKeys: deps.cookieKeys, counters: store, trustedDevices, newDevicesPerIpPerHour: throttle.policy.newDevicesPerIpPerHour,
  });
  const helpCodes = new HelpCodes({ store, clock, schoolDay: schoolDaySettings(config.file), keyEncryptionKey: deps.keyEncryptionKey });
  // Class links are HMAC'd under the key-encryption key, as help codes are: one key for every instance.
  const classLinks = new ClassLinkService({ store, clock, keyEncryptionKey: deps.keyEncryptionKey });
  await app.register(interactions, {
    host, store, clients, cookieKeys: deps.cookieKeys, throttle, devices, clock, helpCodes, classLinks, issuer: config.issuer, audit,
  });
  classroomDeviceRoutes(app, { host, store, clients, devices, trustedDevices, cookieKeys: deps.cookieKeys, issuer: config.issuer });
  await dashboard(app, { host, store, clients, cookieKeys: deps.cookieKeys, issuer: config.issuer, audit, clock, classLinks });

  await developerArea(app, {
    store, clock, clients, host, cookieKeys: deps.cookieKeys, keyEncryptionKey: deps.keyEncryptionKey, throttle, devices,
    issuer: config.issuer, signup: config.developerSignup, secureCookies: httpsIssuer, log: app.log,
    logos: deps.logoFetcher ?? new LogoFetcher(),
  });
  await schoolConsole(app, {
    config, store, clock, clients, host, cookieKeys: deps.cookieKeys, keyEncryptionKey: deps.keyEncryptionKey, throttle, devices,
    audit, helpCodes, classLinks, issuer: config.issuer, secureCookies: httpsIssuer, log: app.log,
  });
  assetRoutes(app);
  healthRoutes(app, store, () => identity.check(), { config: () => configRevision.readiness() });
  metricsRoutes(app, metrics, config.metrics);
  // An address no area answers (each area answers its own: the sign-in screens, the developer area, the
  // APIs). It belongs to nobody, so it negotiates: a person following a wrong link gets a page; a program
  // (no text/html in its Accept) gets JSON.
  app.setNotFoundHandler((req, reply) => {
    if (browserGet(req)) {
      return sendHtml(reply, 404, notFoundPage(translatorFor(req), req.url));
    }
    return sendJsonError(reply, 404, { error: 'not_found', error_description: 'no such endpoint' });
  });
  return app;
}
