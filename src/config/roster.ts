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

/** A OneRoster role as the `types` section names it, and a user type as the SPEC's `type` claim carries it. */
const ROLE = /^[a-z][a-zA-Z]{0,31}$/;
const USER_TYPE = /^[a-z_]{1,32}$/;

/**
 * `--types teacher=employee,aide=staff` (one import's own mapping, over the file's): the pairs, or an error
 * naming the pair that is not `role=type`.
 */
export function parseTypeOverrides(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const [role, type, ...rest] = pair.split('=').map((s) => s.trim());
    if (!role || !type || rest.length || !ROLE.test(role) || !USER_TYPE.test(type)) {
      throw new Error(`--types: "${pair}" is not ROLE=TYPE (a OneRoster role such as teacher, and a user type of a-z and _, e.g. employee)`);
    }
    out[role] = type;
  }
  return out;
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
