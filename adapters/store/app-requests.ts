/**
 * Apps asking to be used by a school (docs/school-console.md → Apps): a developer asks for a live app, from
 * the developer area, and a school admin approves (a connection is made: adapters/store/connections.ts) or
 * declines it in the console. The operator approves an app's going live once; each school then chooses.
 */
export interface AppRequest {
  clientId: string;
  organisationId: string;
  /** The developer id who asked. */
  requestedBy: string;
  /** ISO 8601. */
  requestedAt: string;
  /** A short note to the school (plain text). */
  note?: string | undefined;
  /** `pending` until answered; a declined request stays (so it is not asked again and again) until deleted. */
  status: 'pending' | 'declined';
  /** The school admin's reason, when declined. */
  answer?: string | undefined;
  answeredAt?: string | undefined;
}

export interface AppRequests {
  /** Adds or replaces the request (by client and organisation). */
  putAppRequest(request: AppRequest): Promise<void>;
  findAppRequest(organisationId: string, clientId: string): Promise<AppRequest | undefined>;
  /** false when there was none. */
  deleteAppRequest(organisationId: string, clientId: string): Promise<boolean>;
  /** The organisation's requests, oldest first. */
  listAppRequests(organisationId: string): Promise<AppRequest[]>;
  /** The client's requests, by organisation id. */
  listClientAppRequests(clientId: string): Promise<AppRequest[]>;
}
