import { ROSTER_DEFAULTS, ROSTER_TYPES_DEFAULT } from './defaults.js';
import type { ConfigFile } from './schema.js';

/** The file's `roster` section with its defaults applied (docs/rostering.md, docs/configuration.md). */
export interface RosterSettings {
  /** Days a leaver is held before being deleted. */
  retentionDays: number;
  /** The share of a school's roster-managed users an import may make leave without --allow-mass-removal. */
  massRemovalPercent: number;
  /** OneRoster role (lower case) → the SPEC's user type; the file's entries over the defaults. */
  types: Readonly<Record<string, string>>;
  /** `sourcedId`, `identifier`, `none`, or the key of another source column (SourceUser.extra). */
  rosterIdFrom: string;
}

export function rosterSettings(file: Pick<ConfigFile, 'roster'> = {}): RosterSettings {
  const r = file.roster ?? {};
  return {
    retentionDays: r.retention_days ?? ROSTER_DEFAULTS.retention_days,
    massRemovalPercent: r.mass_removal_percent ?? ROSTER_DEFAULTS.mass_removal_percent,
    types: { ...ROSTER_TYPES_DEFAULT, ...(r.types ?? {}) },
    rosterIdFrom: r.roster_id_from ?? ROSTER_DEFAULTS.roster_id_from,
  };
}
