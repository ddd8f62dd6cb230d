import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SchoolAccess } from './access.js';
import { area, type StaffSignedIn } from './area.js';
import type { SchoolDeps } from './deps.js';
import { type RosterUpload, type RosterUploads, UPLOAD_BYTES, UploadRefused } from './roster-uploads.js';

/**
 * The roster upload form's body (multipart/form-data, RFC 7578): its CSRF token, then one file. The token is
 * checked before a byte of the file is written, so the form's hidden `csrf` field comes first (as a browser
 * sends the fields, in the form's order). At most UPLOAD_BYTES; anything else in the body is ignored.
 */

/** Registers the multipart parser on the scope of the roster's routes only (the rest of the console takes forms). */
export async function acceptUploads(scope: FastifyInstance): Promise<void> {
  await scope.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: UPLOAD_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 100 },
  });
}

const NO_FILE = 'Choose the export to upload: a OneRoster zip or a one-file CSV.';

/** The uploaded file, kept for this session and school; UploadRefused for none (or too large), the CSRF refusal first. */
export async function receiveUpload(
  deps: SchoolDeps, uploads: RosterUploads, req: FastifyRequest, who: StaffSignedIn, school: SchoolAccess,
): Promise<RosterUpload> {
  if (!req.isMultipart()) {
    area(deps).checkCsrf(who, req.body);
    throw new UploadRefused(NO_FILE);
  }
  let csrf: unknown;
  let upload: RosterUpload | undefined;
  for await (const part of req.parts()) {
    if (part.type === 'field') {
      if (part.fieldname === 'csrf') csrf = part.value;
      continue;
    }
    if (part.fieldname !== 'file' || upload) {
      part.file.resume();
      continue;
    }
    try {
      area(deps).checkCsrf(who, { csrf });
    } catch (err) {
      part.file.resume();
      throw err;
    }
    upload = await uploads.receive(part.file, part.filename, { sessionKey: who.session.key, organisationId: school.organisation.id });
  }
  if (!upload) {
    area(deps).checkCsrf(who, { csrf });
    throw new UploadRefused(NO_FILE);
  }
  return upload;
}
