import type { ReadProgress, RosterSource, SourceKind, SourceMode } from '../source.js';
import type { TableReader } from './csv-table.js';
import { readTable } from './csv-table.js';
import { exportDigest } from './digest.js';
import { enrollmentsSpec } from './enrollments.js';
import type { ExportFile, ExportFiles } from './export-files.js';
import { kindReader, type KindSpec } from './kind-reader.js';
import type { ReadLimits } from './limits.js';
import { checkVersions, kindModes, manifestReader, notReadReason, ROLES, type Manifest, type Properties } from './manifest.js';
import { ACADEMIC_SESSIONS, CLASSES, COURSES, ORGS } from './org-tables.js';
import type { Problems } from './problems.js';
import { ReadContext, type RecordBase } from './read-context.js';
import { rolesReader, type RolesRead } from './roles.js';
import { checkUsers } from './users-check.js';
import { usersSpec } from './users.js';

export interface OneRosterOptions {
  /** The export as the person named it, for messages. */
  label: string;
  problems: Problems;
  limits: ReadLimits;
  progress?: ReadProgress | undefined;
}

const MANIFEST = 'manifest.csv';

const noModes = (): Record<SourceKind, SourceMode> =>
  ({ orgs: 'absent', academicSessions: 'absent', courses: 'absent', classes: 'absent', users: 'absent', enrollments: 'absent' });

/**
 * Reads a OneRoster 1.1 or 1.2 CSV export (docs/rostering.md → Formats): manifest.csv first, then each file
 * it says is bulk or delta, in the order records refer to each other (orgs, academicSessions, courses,
 * classes, users, 1.2's roles, enrollments), so that a reference is checked against the files read before.
 * Files the manifest does not name, or names absent, are not read (a note says so); so are demographics,
 * gradebook and resource files. Everything found wrong is an error in the result: when there is one, the
 * records are incomplete and only `errors` and `notes` mean anything.
 */
export async function readOneRoster(files: ExportFiles, o: OneRosterOptions): Promise<RosterSource> {
  const { problems, limits } = o;
  const hashes = new Map<string, string>();
  const notes: string[] = [];
  let total = 0;
  /** Reads one file; true when every row of it was read. */
  const read = async (file: ExportFile, reader: TableReader): Promise<boolean> => {
    if (file.size > limits.fileBytes) {
      problems.add(file.name, 0, '', `file too large: ${file.size} bytes (the limit is ${limits.fileBytes})`);
      return false;
    }
    try {
      const table = await readTable(await file.open(), reader, {
        problems, progress: o.progress, file: file.name, size: file.size, maxBytes: limits.fileBytes, maxRecordChars: limits.recordChars,
        take: (bytes) => (total += bytes) <= limits.totalBytes,
      });
      hashes.set(file.name, table.sha256);
      return table.whole;
    } catch (err) {
      problems.add(file.name, 0, '', `could not be read: ${(err as Error).message}`);
      return false;
    }
  };
  const empty = (format: RosterSource['format']): RosterSource => ({
    format, modes: noModes(), orgs: [], academicSessions: [], courses: [], classes: [], users: [], enrollments: [],
    notes, errors: problems.list(), digest: exportDigest(hashes),
  });

  if (problems.count > 0) return empty('oneroster-1.1'); // the zip's listing refused something: nothing is read
  const manifestFile = files.find(MANIFEST);
  if (!manifestFile) {
    problems.add(MANIFEST, 0, '', `${o.label} has no manifest.csv: a OneRoster export starts with it (its versions and which files are bulk, delta or absent)`);
    return empty('oneroster-1.1');
  }
  const manifest: Manifest = { files: new Map() };
  const properties: Properties = new Map();
  await read(manifestFile, manifestReader(manifest, properties));
  if (hashes.has(manifestFile.name)) checkVersions(properties, manifest, problems, manifestFile.name);
  const version = manifest.version;
  if (!version || problems.count > 0) return empty(version === '1.2' ? 'oneroster-1.2' : 'oneroster-1.1');

  // Which files are read, which are missing, which are there and not read.
  const toRead = new Map<string, { file: ExportFile; mode: 'bulk' | 'delta' }>();
  const skipped = new Map<string, string[]>();
  for (const [name, { mode, line }] of manifest.files) {
    if (mode === 'absent') continue;
    const reason = notReadReason(name, version);
    const file = files.find(`${name}.csv`);
    if (reason !== undefined) {
      if (file) skipped.set(reason, [...(skipped.get(reason) ?? []), file.name]);
    } else if (!file) {
      problems.add(`${name}.csv`, 0, '', `${name}.csv is missing: manifest.csv says it is ${mode} (line ${line})`);
    } else {
      toRead.set(name, { file, mode });
    }
  }
  for (const [reason, names] of skipped) notes.push(`${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} not read (${reason})`);
  for (const file of files.all()) {
    const name = file.name.replace(/\.csv$/i, '');
    const listed = [...manifest.files.entries()].find(([n]) => n.toLowerCase() === name.toLowerCase());
    if (file.name.toLowerCase() === MANIFEST || (listed && listed[1].mode !== 'absent')) continue;
    notes.push(`${file.name} is in the export but ${listed ? 'manifest.csv says it is absent' : 'manifest.csv does not list it'}: not read`);
  }
  const modes = kindModes(manifest);
  const rolesMode = manifest.files.get(ROLES)?.mode ?? 'absent';
  if (version === '1.2' && modes.users === 'bulk' && rolesMode === 'absent') {
    problems.add(MANIFEST, manifest.files.get(ROLES)?.line ?? 0, 'value', 'roles.csv is absent but users.csv is bulk: OneRoster 1.2 gives the users\' roles in roles.csv');
  }
  const size = [...toRead.values()].reduce((sum, { file }) => sum + file.size, manifestFile.size);
  if (size > limits.totalBytes) {
    problems.add(o.label, 0, '', `the export is too large: ${size} bytes uncompressed (the limit is ${limits.totalBytes})`);
  }
  if (problems.count > 0) return { ...empty(`oneroster-${version}`), modes };

  const ctx = new ReadContext(version, modes, problems);
  const result: RosterSource = {
    format: `oneroster-${version}`, modes, orgs: [], academicSessions: [], courses: [], classes: [], users: [], enrollments: [], notes, errors: [], digest: '',
  };
  const readKind = async <R extends RecordBase>(kind: SourceKind, spec: KindSpec<R>, out: R[], byId: Map<string, R>) => {
    const entry = toRead.get(kind);
    if (entry && !(await read(entry.file, kindReader(spec, entry.mode, ctx, out, byId)))) ctx.unread.add(kind);
  };
  const primaryOrgs = new Map<string, string>();
  await readKind('orgs', ORGS, result.orgs, ctx.known.orgs);
  await readKind('academicSessions', ACADEMIC_SESSIONS, result.academicSessions, ctx.known.academicSessions);
  await readKind('courses', COURSES, result.courses, ctx.known.courses);
  await readKind('classes', CLASSES, result.classes, ctx.known.classes);
  await readKind('users', usersSpec(version, primaryOrgs), result.users, ctx.known.users);
  const roles = toRead.get(ROLES);
  const rolesRead: RolesRead = { unmatched: 0, deleted: 0 };
  const rolesWhole = roles ? await read(roles.file, rolesReader(roles.mode, modes.users, ctx, rolesRead)) : true;
  checkUsers(result.users, { version, rolesMode: rolesWhole ? rolesMode : 'absent', primaryOrgs, problems });
  await readKind('enrollments', enrollmentsSpec(version), result.enrollments, ctx.known.enrollments);

  if (rolesRead.unmatched > 0) notes.push(`roles.csv: ${rolesRead.unmatched} role${rolesRead.unmatched > 1 ? 's are' : ' is'} for users not in users.csv and not applied (a role changes with its user's row)`);
  if (rolesRead.deleted > 0) notes.push(`roles.csv: ${rolesRead.deleted} role${rolesRead.deleted > 1 ? 's' : ''} to be deleted not applied by ${rolesRead.deleted > 1 ? 'themselves' : 'itself'} (the user's row gives the roles left)`);
  return { ...result, errors: problems.list(), digest: exportDigest(hashes) };
}
