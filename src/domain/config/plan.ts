import { canonicalize } from 'json-canonicalize';
import type { ConfigKind } from './kinds';

export type PlanAction = 'create' | 'update' | 'delete' | 'unchanged';

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface PlannedChange {
  kind: ConfigKind;
  /** Null for an item without one (deleted with its service). */
  config_key: string | null;
  /** Its name (a page's title, a webhook's URL), for people reading the plan. */
  name: string;
  action: PlanAction;
  /** Null for an item a dry run would create. */
  id: string | null;
  diff: FieldChange[];
}

export type Fields = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values, key order ignored; undefined counts as null. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonicalize(a ?? null) === canonicalize(b ?? null);
}

/**
 * The fields that differ between two records, objects compared key by key (`source_config.url`),
 * arrays and scalars as a whole. A create lists every field it sets.
 */
export function diffFields(before: Fields | null, after: Fields | null, prefix = ''): FieldChange[] {
  if (!before && after)
    return Object.entries(after)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => ({ field: prefix + k, before: null, after: v }));
  if (!before || !after) return [];
  const out: FieldChange[] = [];
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])]) {
    const b = before[key];
    const a = after[key];
    if (sameValue(b, a)) continue;
    if (isPlainObject(b) && isPlainObject(a)) out.push(...diffFields(b, a, `${prefix}${key}.`));
    else out.push({ field: prefix + key, before: b ?? null, after: a ?? null });
  }
  return out;
}

export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
}

export function summarize(changes: readonly PlannedChange[]): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, delete: 0, unchanged: 0 };
  for (const c of changes) summary[c.action] += 1;
  return summary;
}

export const changesAnything = (changes: readonly { action: PlanAction }[]): boolean =>
  changes.some((c) => c.action !== 'unchanged');
