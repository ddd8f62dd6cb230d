import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeveloperAccount } from '../../../adapters/store.js';
import { StoreUnavailableError } from '../../errors.js';
import type { DeveloperDeps } from '../deps.js';
import { DeveloperAccounts } from '../developer-accounts.js';
import { guardedAttempt } from '../guarded-attempt.js';
import { reconfirmation } from '../reconfirmation.js';
import { sendApiError } from './errors.js';

/** What a request that makes a credential carries to confirm it is the developer: one of the two. */
export interface Confirmation { password?: string | undefined; totp_code?: string | undefined }

/**
 * Checks the password again, or a fresh TOTP code when two-step sign-in is on, before the API makes an API
 * token (docs/developer-area.md → The JSON API): a leaked token alone cannot make more. Checked with the
 * sign-in's guessing protection (../guarded-attempt.ts). True when confirmed; otherwise the refusal is sent
 * (400 nothing sent, 403 wrong, 429 too many tries, 503) and nothing is made.
 */
export async function confirmDeveloper(
  deps: DeveloperDeps, req: FastifyRequest, reply: FastifyReply, developer: DeveloperAccount, body: Confirmation,
): Promise<boolean> {
  const confirm = reconfirmation(new DeveloperAccounts(deps), developer);
  const twoStep = confirm.factor === 'code';
  const field = twoStep ? 'totp_code' : 'password';
  const typed = twoStep ? body.totp_code?.trim() : body.password;
  const what = twoStep ? 'a current code from your authenticator app (`totp_code`)' : 'your current password (`password`)';
  if (!typed?.trim()) {
    sendApiError(reply, 400, {
      error: 'invalid_request',
      error_description: `creating a token asks for ${what}${twoStep ? ': two-step sign-in is on, so a password is not enough' : ''}`,
      fields: [{ path: `/${field}`, message: twoStep ? 'is required: two-step sign-in is on' : 'is required' }],
    });
    return false;
  }
  const outcome = await guardedAttempt(deps, req, confirm.attempt(typed));
  if (outcome.ok) return true;
  req.log.info({ event: 'developer.token_refused_confirmation', developerId: developer.id, with: field, why: outcome.why }, 'API token not created: password or code not confirmed');
  switch (outcome.why) {
    case 'wrong':
      sendApiError(reply, 403, {
        error: 'forbidden',
        error_description: twoStep ? 'that code did not work (a code is accepted once); no token was made' : 'the password is not right; no token was made',
        fields: [{ path: `/${field}`, message: twoStep ? 'is not a current code' : 'is not your password' }],
      });
      break;
    case 'throttled':
      reply.header('Retry-After', String(outcome.retryAfterSeconds));
      sendApiError(reply, 429, { error: 'too_many_attempts', error_description: `too many wrong tries: wait ${outcome.retryAfterSeconds} seconds, then try again` });
      break;
    case 'stopped':
      sendApiError(reply, 429, {
        error: 'too_many_attempts',
        error_description: 'too many wrong tries: confirming from a new device is paused; sign in from a device you have used before, or ask the operator to unlock the account',
      });
      break;
    case 'busy':
      reply.header('Retry-After', String(outcome.retryAfterSeconds));
      sendApiError(reply, 503, { error: 'temporarily_unavailable', error_description: `Lanyard is busy checking sign-ins: try again in ${outcome.retryAfterSeconds} seconds` });
      break;
    case 'unavailable':
      reply.header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS));
      sendApiError(reply, 503, { error: 'temporarily_unavailable', error_description: 'checking the password is not possible for a moment: try again shortly' });
      break;
  }
  return false;
}
