import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BearerCallers } from '../../http/bearer-auth.js';
import type { StaffMember } from '../access.js';
import type { SchoolDeps } from '../deps.js';
import { authenticateStaffToken, STAFF_TOKEN_SHAPED } from './staff-token.js';

/**
 * Bearer authentication for /school/api (src/http/bearer-auth.ts): a staff API token (`lys_…`) in the
 * Authorization header becomes the member of staff the request acts as, with their schools and roles read
 * afresh on every request (a role withdrawn takes effect at once). Someone who may no longer sign in
 * (suspended, held by the roster), who is no longer staff of any school, or a school admin without two-step
 * sign-in, is refused like a bad token (staff-token.ts).
 */
export const REALM = 'lanyard-school';

const callers = new BearerCallers<StaffMember>();

/** The member of staff an authenticated request acts as. */
export const memberOf = (req: FastifyRequest): StaffMember => callers.of(req);

export function staffBearerAuth(scope: FastifyInstance, deps: SchoolDeps, publicPaths: ReadonlySet<string>): void {
  callers.authenticate(scope, {
    realm: REALM,
    tokenShape: STAFF_TOKEN_SHAPED,
    logPrefix: 'school_api',
    messages: {
      missing: 'send a staff API token in the Authorization header: Authorization: Bearer lys_…',
      invalid: 'the API token is not valid: it may be mistyped, expired or revoked, or its holder is no longer staff of a school',
      inQuery: 'API tokens are accepted only in the Authorization header, never in the URL; '
        + 'URLs are logged and kept in histories, so revoke this token and create a new one',
    },
    publicPaths,
    verify: (presented) => authenticateStaffToken(deps, `Bearer ${presented}`),
    logged: (member) => ({ userId: member.user.id }),
  });
}
