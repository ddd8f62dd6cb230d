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
