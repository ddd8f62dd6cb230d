import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rosterSettings } from '../config/roster.js';
import { RosterBusyError } from '../roster/roster-lock.js';
import { formField, sendHtml, seeOther } from '../web/http.js';
import { area } from './area.js';
import type { SchoolDeps } from './deps.js';
import { NotInSchoolError } from './errors.js';
import { applyPlanned, type ApplyOutcome, planUpload, rosterHistory, UnreadableUpload } from './roster-import.js';
import { acceptUploads, receiveUpload } from './roster-upload-form.js';
import { type RosterUpload, rosterUploads, type ShownPlan, UploadRefused } from './roster-uploads.js';
import { schoolForm, schoolRequest } from './signed-in.js';
import { rosterPageBody } from './views/roster-page.js';
import { rosterPlanBody } from './views/roster-plan.js';
import { schoolLayout, schoolPath } from './views/school-layout.js';
import { appliedMessage } from './views/roster-words.js';

/**
 * The school's roster in the console, for its admins (docs/school-console.md → The roster):
 * `GET /school/:org/roster` (upload form, the upload waiting, the history), `POST` there (the file: planned,
 * then 303 to its plan), `GET …/roster/plans/:id` (the plan), `POST …/plans/:id/apply` and `…/discard`.
 */

const HISTORY_SHOWN = 20;

type Admin = NonNullable<Awaited<ReturnType<typeof schoolRequest>>>;
type Planned = RosterUpload & { plan: ShownPlan };

const GONE = 'This upload is no longer here: an upload is kept for 30 minutes, for the session that made it. Upload the file again.';
/** The record is in the store, the file on another machine (docs/operations.md → Data directory: sticky sessions). */
const ELSEWHERE = 'This upload was received by another Lanyard server, which holds the file: nothing was changed. Try again, or upload the file again.';

export async function rosterRoutes(scope: FastifyInstance, deps: SchoolDeps): Promise<void> {
  const uploads = rosterUploads(deps);
  await acceptUploads(scope);
  // A folder that cannot be made is said at once; the console still starts (an upload then fails, and says so in the log).
  await uploads.start().catch((err: unknown) => deps.log.warn({ event: 'roster.uploads_folder', err }, 'the roster uploads folder cannot be used'));
  const rosterPath = (slug: string) => schoolPath(slug, '/roster');
  const planPath = (slug: string, id: string) => schoolPath(slug, `/roster/plans/${id}`);

  async function rosterPage(s: Admin, reply: FastifyReply, o: { status?: number; flash?: string | undefined; error?: string } = {}) {
    const slug = s.school.organisation.slug;
    const owner = { sessionKey: s.who.session.key, organisationId: s.school.organisation.id };
    const waiting = await uploads.latest(owner);
    const history = await rosterHistory(deps, s.school, HISTORY_SHOWN);
    const body = rosterPageBody({
      slug, csrf: s.who.csrf, action: rosterPath(slug), history, flash: o.flash, error: o.error,
      pending: waiting?.plan ? { upload: waiting, href: planPath(slug, waiting.id) } : undefined,
    });
    return sendHtml(reply, o.status ?? 200, schoolLayout('Roster', body, s.who, s.school, 'roster'));
  }

  function planPage(s: Admin, reply: FastifyReply, upload: Planned, o: { status?: number; flash?: string | undefined; error?: string } = {}) {
    const base = planPath(s.school.organisation.slug, upload.id);
    const body = rosterPlanBody({
      upload, csrf: s.who.csrf, applyAction: `${base}/apply`, discardAction: `${base}/discard`,
      retentionDays: rosterSettings(deps.config.file).retentionDays, flash: o.flash, error: o.error,
    });
    return sendHtml(reply, o.status ?? 200, schoolLayout('Roster plan', body, s.who, s.school, 'roster'));
  }

  /** The session's planned upload the address names; the console's 404 otherwise. */
  async function planned(s: Admin, id: string): Promise<Planned> {
    const upload = await uploads.find(id, { sessionKey: s.who.session.key, organisationId: s.school.organisation.id });
    if (!upload?.plan) throw new NotInSchoolError(GONE);
    return upload as Planned;
  }

  scope.get<{ Params: { org: string } }>('/:org/roster', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    return rosterPage(s, reply, { flash: area(deps).flash.take(req, reply) });
  });

  scope.post<{ Params: { org: string } }>('/:org/roster', async (req, reply) => {
    // The CSRF token is in the multipart body: receiveUpload checks it before taking the file.
    const s = await schoolRequest(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    let upload: RosterUpload;
    try {
      upload = await receiveUpload(deps, uploads, req, s.who, s.school);
    } catch (err) {
      if (err instanceof UploadRefused) return rosterPage(s, reply, { status: 400, error: err.message });
      throw err;
    }
    try {
      await uploads.setPlan(upload, await planUpload(deps, s.school, s.who.account.user, upload));
    } catch (err) {
      await uploads.discard(upload);
      if (err instanceof UnreadableUpload) return rosterPage(s, reply, { status: 400, error: err.message });
      throw err;
    }
    return seeOther(reply, planPath(s.school.organisation.slug, upload.id));
  });

  scope.get<{ Params: { org: string; id: string } }>('/:org/roster/plans/:id', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    return planPage(s, reply, await planned(s, req.params.id), { flash: area(deps).flash.take(req, reply) });
  });

  scope.post<{ Params: { org: string; id: string } }>('/:org/roster/plans/:id/apply', async (req, reply) => apply(req, reply));

  async function apply(req: FastifyRequest<{ Params: { org: string; id: string } }>, reply: FastifyReply) {
    const s = await schoolForm(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const upload = await planned(s, req.params.id);
    const slug = s.school.organisation.slug;
    const allow = formField(req.body, 'allow_mass_removal') === 'yes';
    let applied: ApplyOutcome;
    try {
      applied = await applyPlanned(deps, s.school, s.who.account.user, upload, allow);
    } catch (err) {
      if (err instanceof RosterBusyError) {
        return planPage(s, reply, upload, { status: 409, error: 'Another roster import is running for Lanyard: try again in a minute, when it has finished. Nothing was changed.' });
      }
      throw err;
    }
    switch (applied.outcome) {
      case 'elsewhere':
        return planPage(s, reply, upload, { status: 409, error: ELSEWHERE });
      case 'file_changed':
        area(deps).flash.set(reply, 'The uploaded file is not the one that was planned any more: nothing was changed. Upload it again.');
        return seeOther(reply, rosterPath(slug));
      case 'plan_errors':
        return planPage(s, reply, upload, { status: 400, error: 'This plan has errors: nothing can be applied. Correct the export and upload it again.' });
      case 'mass_removal':
        return planPage(s, reply, upload, { status: 400, error: 'Tick the box to confirm that they really are leaving, or discard this upload. Nothing was changed.' });
      case 'stale':
        area(deps).flash.set(reply, 'The roster in Lanyard changed since this plan was made, so nothing was applied: here is the plan again, against the roster as it is now. Check it, then apply it.');
        return seeOther(reply, planPath(slug, upload.id));
      case 'done':
        area(deps).flash.set(reply, appliedMessage(applied.result));
        return seeOther(reply, rosterPath(slug));
    }
  }

  scope.post<{ Params: { org: string; id: string } }>('/:org/roster/plans/:id/discard', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const upload = await planned(s, req.params.id);
    await uploads.discard(upload);
    area(deps).flash.set(reply, `The upload ${upload.name} was discarded: nothing was changed.`);
    return seeOther(reply, rosterPath(s.school.organisation.slug));
  });
}
