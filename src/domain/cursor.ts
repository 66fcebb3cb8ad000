import { isUuid } from './ids';
import { parseIsoMs } from './time';

/**
 * Keyset cursors: a page ends at (created_at, id); the next page starts strictly after it in
 * (created_at DESC, id DESC) order, so rows inserted meanwhile never shift or repeat a page.
 * Encoded as base64url JSON so clients treat it as opaque.
 */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;

export function clampLimit(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return PAGE_SIZE_DEFAULT;
  return Math.min(PAGE_SIZE_MAX, Math.max(1, Math.trunc(requested)));
}

function toBase64Url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  return atob(text.replace(/-/g, '+').replace(/_/g, '/'));
}

export function encodeCursor(pos: CursorPosition): string {
  return toBase64Url(JSON.stringify({ c: pos.createdAt.toISOString(), i: pos.id }));
}

/** Null when the cursor is not one we issued. */
export function decodeCursor(cursor: string): CursorPosition | null {
  try {
    const raw: unknown = JSON.parse(fromBase64Url(cursor));
    if (typeof raw !== 'object' || raw === null) return null;
    const { c, i } = raw as Record<string, unknown>;
    if (typeof c !== 'string' || typeof i !== 'string' || !isUuid(i)) return null;
    // Exactly as encodeCursor writes it: a forged instant PostgreSQL cannot hold (year 0, ±275760) is no cursor.
    const createdAt = parseIsoMs(c);
    if (!createdAt) return null;
    return { createdAt, id: i };
  } catch {
    return null;
  }
}

/**
 * Given limit+1 rows fetched in page order, the page and the cursor for the next one. `sortKey`
 * is the timestamp the page is ordered by (created_at unless the resource has a natural time).
 */
export function pageOf<T extends { id: string }>(
  rows: T[],
  limit: number,
  sortKey: (row: T) => Date = (row) => (row as unknown as { createdAt: Date }).createdAt,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: sortKey(last), id: last.id }) : null,
  };
}
