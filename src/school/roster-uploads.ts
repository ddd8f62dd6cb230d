import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../clock.js';
import type { Plan } from '../roster/plan/plan-types.js';
import type { RosterSource } from '../roster/source.js';

/**
 * The roster files school admins upload to the console, kept until they apply the plan or leave it
 * (docs/school-console.md → The roster): each in a folder of its own under one private temporary folder
 * (mode 0700) of this process, under a random id, for the console session and school that uploaded it, for
 * UPLOAD_SECONDS; with the file's SHA-256, checked again before the plan is applied. A new upload by the same
 * session for the same school replaces the one before. Expired uploads are deleted whenever uploads are
 * looked at (no timer), and all of them when the server closes. They are this instance's: behind a load
 * balancer, the Apply of a plan reaches the instance that holds the file (or the admin uploads it again).
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
}

/** An upload's id: 128 random bits, as an address segment. */
const ID = /^[A-Za-z0-9_-]{22}$/;

/** The uploaded file's name as a file name of ours: letters, digits, `.`, `-`, `_`; at most 80 characters. */
export function safeFileName(given: string): string {
  const last = given.split(/[\\/]/).pop() ?? '';
  const name = last.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._-]+/, '').slice(-80);
  return name || 'roster';
}

export class RosterUploads {
  readonly #uploads = new Map<string, RosterUpload>();
  #root: Promise<string> | undefined;

  constructor(private readonly clock: Clock) {}

  /** Takes in the file from `stream` as the owner's upload; UploadRefused when empty or too large (nothing kept). */
  async receive(stream: Readable, givenName: string, owner: UploadOwner): Promise<RosterUpload> {
    await this.#sweep();
    for (const old of [...this.#uploads.values()]) {
      if (old.sessionKey === owner.sessionKey && old.organisationId === owner.organisationId) await this.discard(old.id);
    }
    const id = randomBytes(16).toString('base64url');
    const dir = join(await this.#rootDir(), id);
    await mkdir(dir, { mode: 0o700 });
    const name = safeFileName(givenName);
    const path = join(dir, name);
    const hash = createHash('sha256');
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, counted, createWriteStream(path, { mode: 0o600 }));
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    // A multipart file past its size limit ends early, marked truncated (@fastify/multipart, busboy).
    const refusal = (stream as { truncated?: boolean }).truncated ? `The file is larger than ${UPLOAD_BYTES / 1024 / 1024} MiB.`
      : bytes === 0 ? 'Choose the export to upload: a OneRoster zip or a one-file CSV.' : undefined;
    if (refusal) {
      await rm(dir, { recursive: true, force: true });
      throw new UploadRefused(refusal);
    }
    const upload: RosterUpload = {
      ...owner, id, path, name, sha256: hash.digest('hex'), bytes, expiresAt: this.clock.now().getTime() + UPLOAD_SECONDS * 1000,
    };
    this.#uploads.set(id, upload);
    return upload;
  }

  /** The owner's upload with this id, while it is kept; undefined for anyone else's, or one gone. */
  async find(id: string, owner: UploadOwner): Promise<RosterUpload | undefined> {
    await this.#sweep();
    if (!ID.test(id)) return undefined;
    const upload = this.#uploads.get(id);
    return upload && upload.sessionKey === owner.sessionKey && upload.organisationId === owner.organisationId ? upload : undefined;
  }

  /** The owner's latest upload for the school, if one is kept. */
  async latest(owner: UploadOwner): Promise<RosterUpload | undefined> {
    await this.#sweep();
    return [...this.#uploads.values()].find((u) => u.sessionKey === owner.sessionKey && u.organisationId === owner.organisationId);
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

  /** Deletes the upload and its file. */
  async discard(id: string): Promise<void> {
    const upload = this.#uploads.get(id);
    this.#uploads.delete(id);
    if (upload) await rm(join(upload.path, '..'), { recursive: true, force: true });
  }

  /** Deletes every upload (the server is closing). */
  async close(): Promise<void> {
    this.#uploads.clear();
    const root = this.#root;
    this.#root = undefined;
    if (root) await rm(await root, { recursive: true, force: true }).catch(() => undefined);
  }

  /** How many uploads are kept (tests). */
  get size(): number {
    return this.#uploads.size;
  }

  async #sweep(): Promise<void> {
    const now = this.clock.now().getTime();
    for (const u of [...this.#uploads.values()]) if (u.expiresAt <= now) await this.discard(u.id);
  }

  #rootDir(): Promise<string> {
    this.#root ??= mkdtemp(join(tmpdir(), 'lanyard-roster-uploads-'));
    return this.#root;
  }
}
