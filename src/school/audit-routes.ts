import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formField, sendHtml } from '../web/http.js';
import { maySeeClass, type SchoolAccess } from './access.js';
import { auditCsv } from './audit/audit-csv.js';
import { AuditNames, schoolApps } from './audit/audit-names.js';
import { auditPage, auditPages } from './audit/audit-pages.js';
import { type AuditQuery, type AuditQueryInput, parseAuditQuery } from './audit/audit-query.js';
import { dayOf } from './audit/days.js';
import { usage, usageRange } from './audit/usage.js';
import type { SchoolDeps } from './deps.js';
import { SchoolInputError } from './errors.js';
import { schoolRequest } from './signed-in.js';
import { auditPageBody } from './views/audit-page.js';
import { schoolLayout } from './views/school-layout.js';
import { usagePageBody } from './views/usage-page.js';

/**
 * The school's audit trail and use (docs/school-console.md → Audit and usage), for its admins only (a teacher
 * gets the 404 anyone gets for what is not theirs): `/school/:org/audit` (filters, pages newest first),
 * `/school/:org/audit.csv` (the same filters, every page, as a download) and `/school/:org/usage`.
 */

/** Events on one page of the trail. */
export const AUDIT_PAGE_SIZE = 50;
/** Events read from the store at once while a CSV is written. */
const CSV_PAGE_SIZE = 500;

type OrgParams = { Params: { org: string } };

const FIELDS = ['from', 'to', 'person', 'user_id', 'class_id', 'app', 'kind', 'before'] as const;

/** The filters as typed (the form shows them again), and as the query service takes them. */
function typedFilters(req: FastifyRequest): { typed: Record<string, string | undefined>; input: AuditQueryInput } {
  const typed: Record<string, string | undefined> = {};
  for (const name of FIELDS) typed[name] = formField(req.query, name) || undefined;
  return {
    typed,
    input: {
      from: typed.from, to: typed.to, person: typed.person, userId: typed.user_id, classId: typed.class_id, app: typed.app, kind: typed.kind, before: typed.before,
    },
  };
}

const problemsOf = (err: SchoolInputError): Record<string, string> => Object.fromEntries(err.fields.map((f) => [f.path, f.message]));

/** The query, or the refused fields (the page shows them); any other error goes on to the console's handler. */
function checked(input: AuditQueryInput): { query?: AuditQuery; problems: Record<string, string> } {
  try {
    return { query: parseAuditQuery(input), problems: {} };
  } catch (err) {
    if (err instanceof SchoolInputError && err.fields.length) return { problems: problemsOf(err) };
    throw err;
  }
}

/** A file name of the export: the school's address and the days asked for. */
function csvFileName(school: SchoolAccess, query: AuditQuery): string {
  const days = [query.from, query.to].filter(Boolean).join('_to_');
  return `audit-${school.organisation.slug}${days ? `-${days}` : ''}.csv`.replace(/[^A-Za-z0-9._-]/g, '-');
}

export function auditRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  scope.get<OrgParams>('/:org/audit', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const { store, clients } = deps;
    const organisationId = s.school.organisation.id;
    const { typed, input } = typedFilters(req);
    const { query, problems } = checked(input);
    const [classes, apps, names] = await Promise.all([
      store.listClasses(organisationId), schoolApps(store, clients, organisationId), AuditNames.of(store, clients, organisationId),
    ]);
    let page: Awaited<ReturnType<typeof auditPage>> = { events: [] };
    if (query) {
      try {
        page = await auditPage(store, s.school, query, AUDIT_PAGE_SIZE);
      } catch (err) {
        if (!(err instanceof SchoolInputError)) throw err;
        Object.assign(problems, problemsOf(err));
      }
    }
    await names.learn(page.events.map((e) => e.clientId));
    const refused = Object.keys(problems).length > 0;
    const body = auditPageBody({
      slug: s.school.organisation.slug, query: query ?? {}, typed, problems, ...page,
      classes: classes.filter((c) => maySeeClass(s.school, c.id)), apps, names,
    });
    return sendHtml(reply, refused ? 400 : 200, schoolLayout('Audit trail', body, s.who, s.school, 'audit'));
  });

  scope.get<OrgParams>('/:org/audit.csv', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const query = parseAuditQuery(typedFilters(req).input);
    const names = await AuditNames.of(deps.store, deps.clients, s.school.organisation.id);
    const lines = auditCsv(auditPages(deps.store, s.school, query, CSV_PAGE_SIZE), names);
    // The header line and the first page before the answer starts: a refused filter or the store failing is
    // still a proper error page (or 503), not a cut-off file.
    const first = (await lines.next()).value ?? '';
    const second = await lines.next();
    async function* rest(): AsyncGenerator<string> {
      yield first;
      if (second.done) return;
      yield second.value;
      yield* lines;
    }
    const stream = Readable.from(rest());
    stream.on('error', (err) => req.log.warn({ event: 'school.audit_csv_failed', err }, 'audit CSV export cut short'));
    return reply.code(200)
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${csvFileName(s.school, query)}"`)
      .type('text/csv; charset=utf-8')
      .send(stream);
  });

  scope.get<OrgParams>('/:org/usage', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const typed = { from: formField(req.query, 'from') || undefined, to: formField(req.query, 'to') || undefined };
    let problems: Record<string, string> = {};
    let figures: Awaited<ReturnType<typeof usage>> | undefined;
    try {
      figures = await usage(deps.store, s.school.organisation.id, usageRange(typed, dayOf(deps.clock.now())));
    } catch (err) {
      if (!(err instanceof SchoolInputError)) throw err;
      problems = problemsOf(err);
    }
    const names = await AuditNames.of(deps.store, deps.clients, s.school.organisation.id);
    if (figures) await names.learn(figures.apps);
    const body = usagePageBody({
      slug: s.school.organisation.slug, typed, problems, usage: figures, appName: (id) => names.appName(id) ?? id,
    });
    return sendHtml(reply, figures ? 200 : 400, schoolLayout('Use per day', body, s.who, s.school, 'audit'));
  });
}
