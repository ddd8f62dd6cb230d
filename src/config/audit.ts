import { AUDIT_DEFAULTS } from './defaults.js';
import type { ConfigFile } from './schema.js';

/** The file's `audit` section with its defaults applied (docs/configuration.md). */
export interface AuditSettings {
  /** Days an event of the audit trail is kept. */
  retentionDays: number;
  /** false: nothing is recorded (the bench measures the trail's cost so). */
  enabled: boolean;
}

export function auditSettings(file: Pick<ConfigFile, 'audit'> = {}): AuditSettings {
  const a = file.audit ?? {};
  return { retentionDays: a.retention_days ?? AUDIT_DEFAULTS.retention_days, enabled: a.enabled ?? AUDIT_DEFAULTS.enabled };
}
