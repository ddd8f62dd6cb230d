import { errors } from 'oidc-provider';
import type { Directory } from '../../adapters/store.js';

/** SPEC: OpenID Connect rules 2 / Limits — nonce is at most 1024 characters. */
export const NONCE_MAX_LENGTH = 1024;

type Validator = (ctx: unknown, value: string | undefined) => Promise<void>;

/**
 * Checks on authorization request parameters, run by oidc-provider (`extraParams`) after the client and
 * redirect_uri are validated, so failures are redirected to the client as `invalid_request`.
 */
export function authorizationParams(directory: Directory): Record<string, Validator> {
  return {
    // SPEC: GET /oauth/authorize — organisation: slug or encoded ID of the organisation.
    async organisation(_ctx, value) {
      if (value === undefined) return;
      if (!value || !(await directory.findOrganisation(value))) {
        throw new errors.InvalidRequest('organisation is not known');
      }
    },
    // RFC 6749 §3.3: no scope sent and no default scopes configured → fail with invalid_scope.
    async scope(_ctx, value) {
      if (!value) throw new errors.InvalidScope('no scope requested and the client has no default scopes', '');
    },
    async nonce(_ctx, value) {
      if (value !== undefined && value.length > NONCE_MAX_LENGTH) {
        throw new errors.InvalidRequest(`nonce must be at most ${NONCE_MAX_LENGTH} characters`);
      }
    },
  };
}
