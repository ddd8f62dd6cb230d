/**
 * Lanyard's own errors (not protocol errors: those are oidc-provider's and are the contract).
 * `code` is stable; `expose` says whether the message may be shown to the person who caused it.
 */
export class LanyardError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly statusCode = 500,
    readonly expose = false,
  ) {
    super(message);
    this.name = 'LanyardError';
  }
}

/** A configuration problem: names the JSON path (or variable) and what is wrong. Stops startup. */
export class ConfigError extends LanyardError {
  constructor(readonly problems: string[]) {
    super('config_invalid', `invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** The JSON answer to a store failure on protocol and API endpoints (RFC 6749 §5.2 shape). */
export const UNAVAILABLE_BODY = {
  error: 'temporarily_unavailable',
  error_description: 'the service is temporarily unavailable; try again in a moment',
} as const;

/**
 * The store could not be read or written (connection lost, disk full, database locked too long). Every
 * endpoint answers it with 503 and Retry-After, never 500 (docs/storage.md → When the store fails).
 */
export class StoreUnavailableError extends LanyardError {
  static readonly RETRY_AFTER_SECONDS = 5;
  /**
   * Shaped as oidc-provider's own errors too (message = OAuth code, error_description, expose,
   * allow_redirect), so a store failure inside the provider is answered `temporarily_unavailable` with 503
   * (RFC 6749 §4.1.2.1), never `server_error`.
   */
  readonly error = UNAVAILABLE_BODY.error;
  readonly error_description = UNAVAILABLE_BODY.error_description;
  /** Not sent back to the app: the person stays on Lanyard's "try again in a moment" page and can retry there. */
  readonly allow_redirect = false;
  constructor(cause: unknown) {
    super('store_unavailable', 'temporarily_unavailable', 503, true);
    this.name = 'StoreUnavailableError';
    this.cause = cause;
  }
}

/** Whether an error (or what it wraps) is a store failure. */
export const isStoreUnavailable = (err: unknown): err is StoreUnavailableError =>
  err instanceof StoreUnavailableError || (err instanceof Error && err.cause instanceof StoreUnavailableError);

/**
 * What went wrong, in words for the person running a command: a store failure by what the store said (its
 * cause; its own message is the OAuth code `temporarily_unavailable`), anything else by its message.
 */
export function failureReason(err: unknown): string {
  const why = err instanceof StoreUnavailableError ? err.cause : err;
  return why instanceof Error ? why.message : String(why);
}
