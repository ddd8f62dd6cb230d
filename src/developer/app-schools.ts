import type { AppRequest, Organisation } from '../../adapters/store.js';
import { findSchools } from '../accounts/school-search.js';
import { RequestRefused, SchoolAppRequests, type SchoolStanding } from '../clients/school-app-requests.js';
import type { Actor } from './actor.js';
import type { AppSummary } from './app-summary.js';
import type { DeveloperDeps } from './deps.js';
import { ConflictError, ForbiddenError, ValidationError } from './errors.js';

/** What an owner who is not allowed to ask is told. */
export const OWNERS_ASK = 'Only an owner of the app can ask a school to use it.';

/**
 * A live app's schools (docs/developer-area.md → Asking a school): which schools use it, which were asked and
 * what they answered, and an owner's request to a school, with a short note, that the school's admins answer in
 * their console. A development app asks no school: it is tried with the sandbox school, and the operator
 * approves its going live once (`lanyard apps approve`); each school then chooses. Access to the app is the
 * caller's (AppService.getApp gives the AppSummary).
 */
export class AppSchools {
  readonly #requests: SchoolAppRequests;

  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'>) {
    this.#requests = new SchoolAppRequests(deps);
  }

  /** Schools by name, for choosing one to ask (never the sandbox school). */
  search(query: string): Promise<Organisation[]> {
    return findSchools(this.deps.store, query);
  }

  /** The app's schools: those that use it, then those asked (waiting, declined), each by name. */
  of(app: AppSummary): Promise<SchoolStanding[]> {
    return this.#requests.schoolsOf(app.client.clientId);
  }

  /** An owner asks the school (its id or slug) to use the live app; recorded in the app's history. */
  async ask(actor: Actor, app: AppSummary, organisation: string, note?: string): Promise<AppRequest> {
    if (app.role !== 'owner') throw new ForbiddenError(OWNERS_ASK);
    try {
      const request = await this.#requests.ask(app.client, organisation, actor, note);
      this.deps.log.info({ event: 'app.school_asked', clientId: app.client.clientId, organisationId: request.organisationId, actorId: actor.id }, 'app asked a school');
      return request;
    } catch (err) {
      if (!(err instanceof RequestRefused)) throw err;
      if (err.kind === 'invalid') throw new ValidationError([{ path: err.field ?? 'organisation', message: err.message }]);
      throw new ConflictError(err.message);
    }
  }
}
