import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { OidcRecords } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { Plan } from '../roster/plan/plan-types.js';
import type { RosterSource } from '../roster/source.js';
import type { SchoolDeps } from './deps.js';
import { privateFolder, rosterUploadsFolder, sweepUploads } from './roster-upload-folder.js';

/**
 * The roster files school admins upload to the console, kept until they apply the plan or leave it
 * (docs/school-console.md → The roster), so that any worker process of the machine, or any instance on the
 * same data directory, can show the plan and apply it: each upload's record (whose it is — the console
 * session and school —, the file's name, SHA-256 and size, the plan shown) in the store as a short-lived
 * record (`RosterUpload`, UPLOAD_SECONDS), and its file in a folder of its own (0700; the file 0600) under
 * the machine's uploads folder (roster-upload-folder.ts). The SHA-256 is checked again before the plan is
 * applied. A new upload by the same session for the same school replaces the one before (the record
 * `RosterUploadLatest` names it). Applied and discarded uploads are deleted at once; the files of expired
 * ones when the next upload comes or a process starts. Instances on other machines do not see each
 * other's files: there, the Apply of a plan must reach the machine that received it (sticky sessions).
 */

/** How long an upload waits for Apply. */
export const UPLOAD_SECONDS = 30 * 60;
/** The largest file taken, in bytes (a OneRoster zip of a large school is a few megabytes). */
export const UPLOAD_BYTES = 50 * 1024 * 1024;

/** What a plan showed: everything but the changes themselves (which the apply makes again). */
export interface ShownPlan extends Pick<Plan, 'kinds' | 'errors' | 'massRemoval' | 'notes' | 'organisations'> {
  format: RosterSource['format'];
  /** planFingerprint of the plan. */
  fingerprint: string;
  /** Whether applying it would write anything. */
  changes: boolean;
  /** ISO 8601. */
  plannedAt: string;
}

/** Whose an upload is: one console session, for one school. */
export interface UploadOwner {
  sessionKey: string;
  organisationId: string;
}

export interface RosterUpload extends UploadOwner {
  id: string;
  /** Where the file is, under the name it was given (sanitised: the reader tells a CSV by its `.csv`). */
  path: string;
  name: string;
  sha256: string;
  bytes: number;
  /** Epoch ms. */
  expiresAt: number;
  plan?: ShownPlan | undefined;
}

/** The file was larger than UPLOAD_BYTES, or empty: the person chooses another. */
export class UploadRefused extends Error {
  override name = 'UploadRefused';

  constructor(message: string, readonly tooLarge = false) {
    super(message);
  }
}

/** What a file past UPLOAD_BYTES is refused with. */
export const TOO_LARGE = `The file is larger than ${UPLOAD_BYTES / 1024 / 1024} MiB.`;

/** An upload's id: 128 random bits, as an address segment. */
const ID = /^[A-Za-z0-9_-]{22}$/;

const MODEL = 'RosterUpload';
const LATEST_MODEL = 'RosterUploadLatest';
/** An upload's files are deleted this long after they were written, when their record has surely expired. */
const SWEEP_AFTER_MS = UPLOAD_SECONDS * 1000 + 60_000;

/** The upload's record: all of it but where its file is (the folder of this machine). */
type UploadRecord = Omit<RosterUpload, 'path'>;

/** The uploaded file's name as a file name of ours: letters, digits, `.`, `-`, `_`; at most 80 characters. */
export function safeFileName(given: string): string {
  const last = given.split(/[\\/]/).pop() ?? '';
  const name = last.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._-]+/, '').slice(-80);
  return name || 'roster';
}

export interface RosterUploadsOptions {
  store: { oidc: OidcRecords };
  clock: Clock;
  /** The machine's uploads folder (rosterUploadsFolder). */
  folder: string;
}

export class RosterUploads {
  readonly #o: RosterUploadsOptions;
  #root: Promise<string> | undefined;

  constructor(o: RosterUploadsOptions) {
    this.#o = o;
  }

  /** Makes the folder (private) and deletes what expired uploads left there: once, as the console starts. */
  async start(): Promise<void> {
    await sweepUploads(await this.#rootDir(), SWEEP_AFTER_MS);
  }

  /** Takes in the file from `stream` as the owner's upload; UploadRefused when empty or too large (nothing kept). */
  async receive(stream: Readable, givenName: string, owner: UploadOwner): Promise<RosterUpload> {
    const root = await this.#rootDir();
    await sweepUploads(root, SWEEP_AFTER_MS);
    const before = await this.latest(owner);
    if (before) await this.discard(before);
    const id = randomBytes(16).toString('base64url');
    const dir = join(root, id);
    await mkdir(dir, { mode: 0o700 });
    const name = safeFileName(givenName);
    const path = join(dir, name);
    const hash = createHash('sha256');
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        // A body streamed past the limit (the API's, which no multipart limit cuts short): stop reading it.
        done(bytes > UPLOAD_BYTES ? new UploadRefused(TOO_LARGE, true) : null, chunk);
      },
    });
    // Through a pass-through, so that a refusal leaves `stream` (a request's body) open: the rest of it is read
    // and dropped, and the refusal still reaches the client rather than a reset connection.
    const source = new PassThrough();
    stream.pipe(source);
    try {
      await pipeline(source, counted, createWriteStream(path, { mode: 0o600 }));
    } catch (err) {
      stream.unpipe(source);
      stream.resume();
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    // A multipart file past its size limit ends early, marked truncated (@fastify/multipart, busboy).
    const tooLarge = (stream as { truncated?: boolean }).truncated === true;
    const refusal = tooLarge ? TOO_LARGE : bytes === 0 ? 'Choose the export to upload: a OneRoster zip or a one-file CSV.' : undefined;
    if (refusal) {
      await rm(dir, { recursive: true, force: true });
      throw new UploadRefused(refusal, tooLarge);
    }
    const upload: RosterUpload = {
      ...owner, id, path, name, sha256: hash.digest('hex'), bytes, expiresAt: this.#o.clock.now().getTime() + UPLOAD_SECONDS * 1000,
    };
    try {
      await this.#save(upload);
      await this.#o.store.oidc.upsert(LATEST_MODEL, latestKey(owner), { id }, UPLOAD_SECONDS);
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    return upload;
  }

  /** Keeps the plan shown with the upload (for whichever process shows or applies it next). */
  async setPlan(upload: RosterUpload, plan: ShownPlan): Promise<void> {
    upload.plan = plan;
    await this.#save(upload);
  }

  /** The owner's upload with this id, while it is kept; undefined for anyone else's, or one gone. */
  async find(id: string, owner: UploadOwner): Promise<RosterUpload | undefined> {
    if (!ID.test(id)) return undefined;
    const record = (await this.#o.store.oidc.find(MODEL, id)) as UploadRecord | undefined;
    if (!record || record.sessionKey !== owner.sessionKey || record.organisationId !== owner.organisationId) return undefined;
    return { ...record, path: join(await this.#rootDir(), id, record.name) };
  }

  /** The owner's latest upload for the school, if one is kept. */
  async latest(owner: UploadOwner): Promise<RosterUpload | undefined> {
    const latest = await this.#o.store.oidc.find(LATEST_MODEL, latestKey(owner));
    return typeof latest?.id === 'string' ? this.find(latest.id, owner) : undefined;
  }

  /** Whether the upload's file is on this machine (with the record in a store shared by several, it may be on another). */
  async here(upload: RosterUpload): Promise<boolean> {
    return access(upload.path).then(() => true, () => false);
  }

  /** Whether the file is still the one uploaded (its SHA-256 again). */
  async unchanged(upload: RosterUpload): Promise<boolean> {
    const hash = createHash('sha256');
    try {
      await pipeline(createReadStream(upload.path), hash);
    } catch {
      return false;
    }
    return hash.digest('hex') === upload.sha256;
  }

  /** Deletes the upload: its record and its file. */
  async discard(upload: RosterUpload): Promise<void> {
    await this.#o.store.oidc.destroy(MODEL, upload.id);
    await rm(join(await this.#rootDir(), upload.id), { recursive: true, force: true });
  }

  /** Writes the record, for the rest of its time (a lifetime given again replaces the one before). */
  async #save(upload: RosterUpload): Promise<void> {
    const { path: _path, ...record } = upload;
    const seconds = Math.ceil((upload.expiresAt - this.#o.clock.now().getTime()) / 1000);
    if (seconds > 0) await this.#o.store.oidc.upsert(MODEL, upload.id, { ...record }, seconds);
  }

  #rootDir(): Promise<string> {
    this.#root ??= privateFolder(this.#o.folder).catch((err: unknown) => {
      this.#root = undefined; // asked again next time
      throw err;
    });
    return this.#root;
  }
}

const latestKey = (owner: UploadOwner): string => `${owner.sessionKey}:${owner.organisationId}`;

const uploadsOf = new WeakMap<SchoolDeps, RosterUploads>();

/** The uploads waiting for Apply: records in the store, files in the machine's uploads folder (one per console, its pages and its API alike). */
export function rosterUploads(deps: SchoolDeps): RosterUploads {
  let made = uploadsOf.get(deps);
  if (!made) uploadsOf.set(deps, (made = new RosterUploads({ store: deps.store, clock: deps.clock, folder: rosterUploadsFolder(deps.config.storeUrl) })));
  return made;
}
