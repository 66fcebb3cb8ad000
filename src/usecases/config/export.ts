import { CONFIG_KINDS, type ConfigKind, SECTION_OF, slugKey } from '../../domain/config/kinds';
import type { Fields } from '../../domain/config/plan';
import type { OrgContext } from '../shared/context';
import { displayRefs } from './plan';
import { type RowOf, mapRefs, nameOf, storedRecord } from './records';
import { loadSnapshot } from './snapshot';

export type ExportedDocument = { version: 1 } & Record<string, unknown>;

/** Fields a document may leave out because leaving them out means the same. */
const omittable = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0);

function compact(record: Fields): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(record)) {
    if (omittable(v)) continue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && k === 'branding') {
      const inner = compact(v as Fields);
      if (Object.keys(inner).length) out[k] = inner;
      continue;
    }
    out[k] = v;
  }
  return out;
}

/** Keys for items that have none, made from their names and unique within their kind. */
function derivedKeys(
  rows: { id: string; configKey?: string | null }[],
  nameOfRow: (row: never) => string,
): Map<string, string> {
  const used = new Set(rows.flatMap((r) => (r.configKey ? [r.configKey] : [])));
  const out = new Map<string, string>();
  for (const row of rows) {
    if (row.configKey) continue;
    const base = slugKey(nameOfRow(row as never));
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}-${n}`;
    used.add(key);
    out.set(row.id, key);
  }
  return out;
}

/**
 * The organization's configuration as a document that applies back with an empty plan: the items
 * with a config_key, every section present (so a prune with it deletes nothing), references by
 * config_key. With `includeUnmanaged`, the other items too, each with a key made from its name and
 * its `id`, so that applying the export adopts them. Contracts only for a key that may read them.
 */
export async function exportConfig(
  ctx: OrgContext,
  options: { includeUnmanaged: boolean; includeContracts: boolean },
): Promise<ExportedDocument> {
  const snap = await loadSnapshot(ctx.em, ctx.org.id);
  const keyOf = new Map<string, string>();
  const adopted = new Set<string>();
  for (const kind of CONFIG_KINDS) {
    const rows = snap.rows[kind] as (RowOf[ConfigKind] & { configKey?: string | null })[];
    for (const r of rows) if (r.configKey) keyOf.set(r.id, r.configKey);
    if (!options.includeUnmanaged) continue;
    for (const [id, key] of derivedKeys(rows, (row) => nameOf(kind, storedRecord(kind, row)))) {
      keyOf.set(id, key);
      adopted.add(id);
    }
  }
  const display = displayRefs(snap, keyOf);
  const doc: ExportedDocument = { version: 1 };
  for (const kind of CONFIG_KINDS) {
    // Without them the section is left out, which a document reads as "not managed here".
    if (kind === 'contract' && !options.includeContracts) continue;
    doc[SECTION_OF[kind]] = (snap.rows[kind] as RowOf[ConfigKind][])
      .filter((r) => keyOf.has(r.id))
      .map((r) => ({
        config_key: keyOf.get(r.id),
        ...(adopted.has(r.id) ? { id: r.id } : {}),
        ...compact(mapRefs(kind, storedRecord(kind, r), display)),
      }));
  }
  return doc;
}
