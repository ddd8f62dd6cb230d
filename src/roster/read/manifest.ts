import { SOURCE_KINDS, type SourceKind, type SourceMode } from '../source.js';
import type { Row, TableReader } from './csv-table.js';
import type { OneRosterVersion } from './oneroster-vocabulary.js';
import type { Problems } from './problems.js';

/**
 * manifest.csv, the first file of a OneRoster export: `propertyName,value` rows. `manifest.version` (1.0),
 * `oneroster.version` (1.1 or 1.2) and `file.NAME` (bulk, delta or absent) for each file the standard
 * names; `source.*` and other properties are not read.
 */
export interface Manifest {
  version?: OneRosterVersion | undefined;
  /** `file.NAME` by NAME (orgs, users, roles, demographics, lineItems…), with the manifest's line. */
  files: Map<string, { mode: SourceMode; line: number }>;
}

/** Files Lanyard reads besides the six kinds: 1.2's roles. */
export const ROLES = 'roles';

/** What does not concern sign-in, said once in a note when the export carries it. */
const NOT_READ: Record<string, string> = {
  demographics: 'Lanyard keeps no demographics',
  userProfiles: 'Lanyard keeps no user profiles',
};

/** A manifest.csv property's value and line. */
export type Properties = Map<string, { value: string; line: number }>;

/** Reads manifest.csv into `properties` and the `file.NAME` modes into `manifest`. */
export function manifestReader(manifest: Manifest, properties: Properties): TableReader {
  return {
    header(names: string[], problems: Problems, file: string): boolean {
      const missing = ['propertyName', 'value'].filter((c) => !names.includes(c));
      for (const column of missing) problems.add(file, 1, column, `the header has no column ${column} (manifest.csv is propertyName,value)`);
      return missing.length === 0;
    },
    row(row: Row): void {
      const name = row.get('propertyName');
      if (name === undefined) return;
      const value = row.get('value') ?? '';
      const other = properties.get(name);
      if (other) return row.problem('propertyName', `the property is also on line ${other.line}`, name);
      properties.set(name, { value, line: row.line });
      const file = /^file\.(.+)$/.exec(name)?.[1];
      if (file !== undefined) {
        const mode = value.toLowerCase();
        if (mode === 'bulk' || mode === 'delta' || mode === 'absent') manifest.files.set(file, { mode, line: row.line });
        else row.problem('value', `${name} must be bulk, delta or absent`, value);
      }
    },
  };
}

/** The version problems, after manifest.csv is read: an unsupported version is named. */
export function checkVersions(properties: Properties, manifest: Manifest, problems: Problems, file: string): void {
  const manifestVersion = properties.get('manifest.version');
  if (manifestVersion && manifestVersion.value !== '1.0') {
    problems.add(file, manifestVersion.line, 'value', `manifest.version ${manifestVersion.value} is not supported (1.0 is)`, manifestVersion.value);
  }
  const version = properties.get('oneroster.version');
  if (!version) {
    problems.add(file, 0, 'propertyName', 'manifest.csv has no oneroster.version (1.1 or 1.2)');
  } else if (version.value === '1.1' || version.value === '1.2') {
    manifest.version = version.value;
  } else {
    problems.add(file, version.line, 'value', `OneRoster ${version.value || '(empty)'} is not supported: Lanyard reads OneRoster 1.1 and 1.2 CSV exports`, version.value);
  }
}

/** The modes of the six kinds; a kind the manifest does not name is absent. */
export function kindModes(manifest: Manifest): Record<SourceKind, SourceMode> {
  return Object.fromEntries(SOURCE_KINDS.map((k) => [k, manifest.files.get(k)?.mode ?? 'absent'])) as Record<SourceKind, SourceMode>;
}

/** Why a file the manifest lists is not read (a note), or undefined for the files that are. */
export function notReadReason(name: string, version: OneRosterVersion): string | undefined {
  if ((SOURCE_KINDS as readonly string[]).includes(name) || (name === ROLES && version === '1.2')) return undefined;
  return NOT_READ[name] ?? 'gradebook, resources and other files are not read';
}
