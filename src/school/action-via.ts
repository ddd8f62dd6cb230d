/**
 * Where a console change was asked for: the console's pages, or /school/api with a staff API token. A change
 * made through the API says so in its audit event's detail (`via: api`; docs/school-console.md → The school
 * API); the pages' changes carry no `via`.
 */
export interface ActionVia { via?: 'api' | undefined }

/** The audit event's `detail`: `detail` with `via` added when the change came through the API (none when empty). */
export function viaDetail(o: ActionVia, detail: Record<string, string> = {}): { detail?: Record<string, string> } {
  const all = { ...detail, ...(o.via ? { via: o.via } : {}) };
  return Object.keys(all).length ? { detail: all } : {};
}
