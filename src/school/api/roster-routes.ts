import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { okList, okRef } from '../../http/openapi-parts.js';
import { sendJsonError } from '../../http/json-errors.js';
import type { SchoolDeps } from '../deps.js';
import { applyPlanned, planUpload, rosterHistory } from '../roster-import.js';
import { type RosterUpload, rosterUploads, type ShownPlan, TOO_LARGE, UPLOAD_BYTES, UploadRefused } from '../roster-uploads.js';
import { appliedMessage } from '../views/roster-words.js';
import { actingIn } from './acting.js';
import { errors, type OrgParams, orgParams } from './route-schemas.js';
import { rosterImportJson, rosterPlanJson } from './roster-views.js';

/** The bodies POST …/roster takes, with the file name the roster reader is given for each (it tells a CSV by its name). */
const EXPORTS = { 'application/zip': 'roster.zip', 'text/csv': 'roster.csv' } as const;
type ExportType = keyof typeof EXPORTS;

const HISTORY = { default: 20, most: 200 } as const;

type RosterQuery = { dry_run: boolean; allow_mass_removal: boolean };

const refusedMessages = {
  plan_errors: 'This plan has errors: nothing can be applied. Correct the export and send it again.',
  mass_removal: 'A large part of the school would leave: nothing was changed. If they really are leaving, send it again with allow_mass_removal=true.',
  stale: 'The roster in Lanyard changed while this was planned, so nothing was applied: here is the plan against the roster as it is now. Send it again to apply it.',
} as const;

/**
 * The school's roster (docs/school-console.md → The roster), for its admins (a teacher gets 404), with the
 * services of the console's Roster page: the export as the request body (a OneRoster zip, or the one-file CSV),
 * planned as `lanyard roster import --org <school>` plans it, then applied with the page's checks (the
 * mass-removal guard, the roster lock), or only planned with `dry_run=true`. Nothing of the file is kept.
 */
export async function rosterRoutes(api: FastifyInstance, deps: SchoolDeps): Promise<void> {
  // The body is streamed to the upload's private file, never held whole in memory (roster-uploads.ts counts it).
  for (const type of Object.keys(EXPORTS)) api.addContentTypeParser(type, (_req, payload, done) => done(null, payload));
  const uploads = rosterUploads(deps);
  const binary = (what: string) => ({ schema: { description: `${what}, at most ${UPLOAD_BYTES / 1024 / 1024} MiB.` } });

  api.post<{ Params: OrgParams; Querystring: RosterQuery }>('/schools/:org/roster', {
    bodyLimit: UPLOAD_BYTES,
    schema: {
      tags: ['roster'],
      operationId: 'importRoster',
      summary: 'Import the school’s roster',
      description: 'The school’s export as the body — `Content-Type: application/zip` (a OneRoster 1.1 or 1.2 export of this school) or `text/csv` (the one-file CSV) — '
        + 'planned against Lanyard’s roster, then applied unless `dry_run=true`: 200 with the plan and whether it was applied. Not applied, 422 with the plan and '
        + '`refused`: it has errors; too many would leave and `allow_mass_removal=true` was not sent; the roster changed while it was planned. 409 `roster_busy` '
        + 'while another import is running; 400 for a file that is not a roster export. An applied import is in the school’s audit trail and its history. School admins only.',
      params: orgParams,
      querystring: {
        type: 'object', additionalProperties: false,
        properties: {
          dry_run: { type: 'boolean', default: false, description: 'Only plan: nothing is written.' },
          allow_mass_removal: { type: 'boolean', default: false, description: 'Apply even though a large part of the school would leave (the plan’s `mass_removal`).' },
        },
      },
      body: { content: { 'application/zip': binary('A OneRoster export, zipped'), 'text/csv': binary('The one-file CSV (UTF-8)') } },
      response: {
        200: okRef('Planned (a dry run, or nothing to change) or applied.', 'RosterResult'),
        422: okRef('Not applied: `refused` says why.', 'RosterResult'),
        ...errors(400, 404, 409, 413, 415),
      },
    },
  }, async (req, reply) => {
    const acting = actingIn(req, { admin: true });
    const type = req.mediaType as ExportType;
    if (Number(req.headers['content-length'] ?? 0) > UPLOAD_BYTES) return refuse(reply, 413, TOO_LARGE);
    const body = req.body as Readable | undefined;
    if (!body || !(type in EXPORTS)) return refuse(reply, 415, 'Send the export as the body: Content-Type: application/zip (OneRoster) or text/csv (the one-file CSV).');
    let upload: RosterUpload | undefined;
    try {
      upload = await uploads.receive(body, EXPORTS[type], { sessionKey: `api:${randomUUID()}`, organisationId: acting.school.organisation.id });
      const planned = upload as RosterUpload & { plan: ShownPlan };
      planned.plan = await planUpload(deps, acting.school, acting.actor, upload, acting);
      if (req.query.dry_run) return { applied: false, message: 'A dry run: nothing was written.', plan: rosterPlanJson(planned.plan) };
      const done = await applyPlanned(deps, acting.school, acting.actor, planned, req.query.allow_mass_removal, acting);
      if (done.outcome === 'done') {
        const { result } = done;
        return { applied: result.applied, ...(result.run ? { run_id: result.run.id } : {}), message: appliedMessage(result), plan: rosterPlanJson(planned.plan) };
      }
      // The file was written by this very request, on this machine: anything else is Lanyard's failure.
      if (done.outcome === 'file_changed' || done.outcome === 'elsewhere') throw new Error(`the uploaded roster could not be applied: ${done.outcome}`);
      return reply.code(422).send({ applied: false, refused: done.outcome, message: refusedMessages[done.outcome], plan: rosterPlanJson(planned.plan) });
    } catch (err) {
      if (err instanceof UploadRefused) return refuse(reply, err.tooLarge ? 413 : 400, err.message);
      throw err;
    } finally {
      if (upload) await uploads.discard(upload);
    }
  });

  api.get<{ Params: OrgParams; Querystring: { limit: number } }>('/schools/:org/roster/imports', {
    schema: {
      tags: ['roster'],
      operationId: 'listRosterImports',
      summary: 'The roster’s import history',
      description: 'The applied imports that covered the school, newest first: from the console, this API or the operator’s command line. School admins only.',
      params: orgParams,
      querystring: {
        type: 'object', additionalProperties: false,
        properties: { limit: { type: 'integer', minimum: 1, maximum: HISTORY.most, default: HISTORY.default } },
      },
      response: { 200: okList('The imports.', 'RosterImport'), ...errors(400, 404) },
    },
  }, async (req) => (await rosterHistory(deps, actingIn(req, { admin: true }).school, req.query.limit)).map(rosterImportJson));
}

const refuse = (reply: FastifyReply, status: number, message: string) =>
  sendJsonError(reply, status, { error: 'invalid_request', error_description: message });
