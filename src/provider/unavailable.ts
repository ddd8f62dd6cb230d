import { unavailablePage } from '../web/error-page.js';
import { isStoreUnavailable, StoreUnavailableError, UNAVAILABLE_BODY } from '../errors.js';
import { providerPageLanguage } from './render-error.js';
import type { ProviderMiddleware } from './types.js';

/**
 * The outermost provider middleware: a store failure anywhere in a protocol request is `503` with
 * `Retry-After`, never a 500. oidc-provider's own handlers already answer it `temporarily_unavailable`
 * (src/errors.ts); this adds the header, and answers failures in Lanyard's shims, which run before them.
 */
export const storeUnavailable: ProviderMiddleware = async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    if (!isStoreUnavailable(err)) throw err;
    ctx.status = 503;
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.type = 'html';
      ctx.body = unavailablePage(providerPageLanguage(ctx));
    } else {
      ctx.body = { ...UNAVAILABLE_BODY };
    }
  }
  if (ctx.status === 503) {
    ctx.set('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS));
    ctx.set('Cache-Control', 'no-store');
  }
};
