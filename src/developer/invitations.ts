import type { Actor } from './actor.js';
import type { DeveloperDeps } from './deps.js';
import { emailProblem, normaliseEmail } from './developer-accounts.js';
import { ConflictError, ValidationError } from './errors.js';
import { LinkRecords } from './link-records.js';

/**
 * Invitations (docs/developer-area.md): `lanyard developers invite EMAIL` prints a link valid 7 days and usable once;
 * Lanyard sends no email. The link carries a 256-bit random token; the store keeps only its SHA-256, as a
 * `DeveloperInvitation` record that expires with the invitation and is consumed atomically when accepted
 * (two tabs submitting at once create one account; link-records.ts). The invitation is for its email:
 * accepting it creates that account, with a name and password the developer chooses.
 */
export const INVITATION_MODEL = 'DeveloperInvitation';
export const INVITATION_DAYS = 7;
export const INVITATION_SECONDS = INVITATION_DAYS * 24 * 60 * 60;

export interface Invitation {
  [key: string]: unknown;
  email: string;
  invitedById: string;
  invitedByName: string;
  /** ISO 8601. */
  createdAt: string;
  expiresAt: string;
  /** Set (epoch seconds) once accepted. */
  consumed?: number;
}

export interface IssuedInvitation {
  email: string;
  /** The single-use link to hand to the developer. */
  link: string;
  expiresAt: Date;
}

export const invitationPath = (token: string) => `/developer/invitations/${token}`;

export class Invitations {
  readonly #links: LinkRecords<Invitation>;

  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'issuer'>) {
    this.#links = new LinkRecords(deps, INVITATION_MODEL, INVITATION_SECONDS);
  }

  /** A new invitation for `email`; ConflictError when the email already has an account. */
  async invite(email: string, invitedBy: Actor): Promise<IssuedInvitation> {
    const normalised = normaliseEmail(email);
    const problem = emailProblem(email);
    if (problem) throw new ValidationError([{ path: 'email', message: problem }]);
    if (await this.deps.store.findDeveloperByEmail(normalised)) throw new ConflictError(`${normalised} already has a developer account`);
    const { token, expiresAt } = await this.#links.issue((now, lapses) => ({
      email: normalised, invitedById: invitedBy.id, invitedByName: invitedBy.name, createdAt: now.toISOString(), expiresAt: lapses.toISOString(),
    }));
    return { email: normalised, link: `${this.deps.issuer}${invitationPath(token)}`, expiresAt };
  }

  /** The invitation behind a link (used or not); undefined when unknown or expired. */
  async find(token: string): Promise<Invitation | undefined> {
    const record = await this.#links.find(token);
    return typeof record?.email === 'string' ? record : undefined;
  }

  /** Uses the invitation up: true for the one caller that did, false when it was used already (or is gone). */
  consume(token: string): Promise<boolean> {
    return this.#links.consume(token);
  }
}
