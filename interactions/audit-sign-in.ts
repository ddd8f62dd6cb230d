import type { FastifyRequest } from 'fastify';
import type { Counters, User } from '../adapters/store.js';
import type { DeviceKind } from '../src/accounts/login-throttle.js';
import { actor, subject } from '../src/audit/audit-people.js';
import type { AuditInput } from '../src/audit/audit-recorder.js';
import { boundFailureRow } from '../src/audit/failure-rows.js';
import { addressBlock } from '../src/http/address-block.js';
import type { Details } from './context.js';

/**
 * Sign-ins as the school's audit trail records them (docs/storage.md → The audit trail): who, when, how (the
 * method), on what device (classroom, known, other), to which app, from which address, and the result. Never
 * anything typed: a failure names the person only when the username typed is theirs, and says nothing of the
 * secret or of a username that matches no one.
 */

export interface SignInFacts {
  organisationId: string;
  details: Details;
  /** password, emoji, badge (a badge with its pictures too: badge), help_code. */
  method: string;
  device: DeviceKind;
}

const clientOf = (details: Details) => String(details.params.client_id);

/** A sign-in that went through. */
export function signInEvent(req: FastifyRequest, f: SignInFacts, user: User): AuditInput {
  return {
    organisationId: f.organisationId, kind: 'sign_in', action: 'sign_in', ...actor(user), ...subject(user),
    method: f.method, deviceKind: f.device, clientId: clientOf(f.details), result: 'success', source: req.ip,
  };
}

/**
 * A sign-in that did not (`result`: wrong_credential, throttled, locked, or why the app refused the person).
 * Failures merge per UTC day, source, method and person (`?`: no one the username names, or a badge), the
 * source being the address's block (addressBlock: an IPv6 address's /64), so a flood from one network makes
 * at most one row per person it tries and method in a day, whatever it types; and a school's day has at most
 * FAILURE_ROWS_PER_DAY such rows, past which failures merge into the day's overflow row
 * (src/audit/failure-rows.ts: counted in the store, so never throws).
 */
export async function failedSignInEvent(
  counters: Pick<Counters, 'hitCounter' | 'clearCounter'>, req: Pick<FastifyRequest, 'ip'>, f: SignInFacts,
  o: { result: string; at: Date; user?: User | undefined },
): Promise<AuditInput> {
  const at = o.at.toISOString();
  const u = o.user;
  const source = addressBlock(req.ip);
  return boundFailureRow(counters, {
    organisationId: f.organisationId, at, kind: 'sign_in_failed', action: 'sign_in',
    ...(u ? subject(u) : {}),
    method: f.method, deviceKind: f.device, clientId: clientOf(f.details), result: o.result, source,
    aggregate: `fail:${at.slice(0, 10)}:${source}:${f.method}:${u?.id ?? '?'}`,
  });
}
