/**
 * The `before` cursor of the audit trail's pages (docs/school-console.md → Audit and usage): the last event
 * of a page, by time and id (the trail's order), as one opaque URL-safe value. The next page is every
 * matching event before it, so events recorded meanwhile never shift a page.
 */

export interface AuditPosition {
  at: string;
  id: string;
}

const MAX_CURSOR = 400;

export const encodeCursor = (p: AuditPosition): string => Buffer.from(JSON.stringify([p.at, p.id]), 'utf8').toString('base64url');

/** The position a cursor stands for; undefined for anything that is not one of ours. */
export function decodeCursor(cursor: string): AuditPosition | undefined {
  if (cursor.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [at, id] = value as unknown[];
    if (typeof at !== 'string' || typeof id !== 'string' || !id || Number.isNaN(Date.parse(at))) return undefined;
    return { at, id };
  } catch {
    return undefined;
  }
}
