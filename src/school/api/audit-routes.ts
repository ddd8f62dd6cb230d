import type { FastifyInstance } from 'fastify';
import { okRef } from '../../http/openapi-parts.js';
import { adminOf } from '../access.js';
import { auditPage } from '../audit/audit-pages.js';
import { parseAuditQuery } from '../audit/audit-query.js';
import { dayOf } from '../audit/days.js';
import { usage, usageRange } from '../audit/usage.js';
import type { SchoolDeps } from '../deps.js';
import { memberOf } from './auth.js';
import { auditQuery, type AuditQueryParams, errors, type OrgParams, orgParams, usageQuery } from './route-schemas.js';
import { auditEventJson, usageJson } from './views.js';

/** The school's audit trail and use per day, for its admins (a teacher gets 404), as the console's pages show them. */
export function auditRoutes(api: FastifyInstance, deps: SchoolDeps): void {
  api.get<{ Params: OrgParams; Querystring: AuditQueryParams }>('/schools/:org/audit', {
    schema: {
      tags: ['audit'],
      operationId: 'listAuditEvents',
      summary: 'The school’s audit trail',
      description: 'Sign-ins (failed ones merged per source, method, person and day: see `count`), app launches, credential changes, roster imports and console actions, '
        + 'newest first, a page at a time: send the answer’s `next` as `before` for the next page. Filters combine; `person`, `user_id` and `class_id` match '
        + 'the events whose actor or subject is one of those people. School admins only.',
      params: orgParams,
      querystring: auditQuery,
      response: { 200: okRef('A page of events.', 'AuditPage'), ...errors(400, 404) },
    },
  }, async (req) => {
    const school = adminOf(memberOf(req), req.params.org);
    const q = req.query;
    const query = parseAuditQuery({
      from: q.from, to: q.to, person: q.person, userId: q.user_id, classId: q.class_id, app: q.app, kind: q.kind, before: q.before,
    });
    const page = await auditPage(deps.store, school, query, q.limit);
    return { events: page.events.map(auditEventJson), next: page.next ?? null };
  });

  api.get<{ Params: OrgParams; Querystring: { from?: string; to?: string } }>('/schools/:org/usage', {
    schema: {
      tags: ['audit'],
      operationId: 'getUsage',
      summary: 'The school’s use per day',
      description: 'Successful sign-ins by method, failed sign-ins, and sign-ins and launches by app, per UTC day, for a range of at most a year (the last 30 days by default). School admins only.',
      params: orgParams,
      querystring: usageQuery,
      response: { 200: okRef('The figures.', 'Usage'), ...errors(400, 404) },
    },
  }, async (req) => {
    const school = adminOf(memberOf(req), req.params.org);
    return usageJson(await usage(deps.store, school.organisation.id, usageRange(req.query, dayOf(deps.clock.now()))));
  });
}
