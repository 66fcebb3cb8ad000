import { randomUUID } from 'node:crypto';
import { agentStatus } from '../../domain/agent-status';
import { CONFIG_KINDS, type ConfigKind, type RefTarget, SECTION_OF, formatPath } from '../../domain/config/kinds';
import { type PlannedChange, diffFields, sameValue } from '../../domain/config/plan';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { OrgContext } from '../shared/context';
import type { ApplyOptions, ConfigSections, EntryOf, ParsedDocument } from './document';
import { type RowOf, keepsLegacyConfirmation, mapRefs, nameOf, requestedRecord, storedRecord } from './records';
import { type Snapshot, loadSnapshot } from './snapshot';
import { checkEntries } from './checks';
import type { ConfigPlan, ItemPlan } from './items';

export type { ConfigPlan, ItemPlan };
import { assertDeletable, assertQuotas } from './guards';

type Segment = string | number;

const LABEL: Record<RefTarget, string> = {
  customer: 'customer',
  service: 'service',
  metric: 'metric',
  slo: 'SLO',
  status_page: 'status page',
  webhook: 'webhook',
  contract: 'contract',
  agent: 'agent',
};

interface DocSlot {
  id: string;
  index: number;
}

/** Matches entries to items (by config_key, or by `id` to adopt one), and reports duplicate keys. */
function matchEntries(sections: ConfigSections, snap: Snapshot, errors: FieldError[]) {
  const docKeys = new Map<ConfigKind, Map<string, DocSlot>>();
  const adopted = new Set<string>();
  for (const kind of CONFIG_KINDS) {
    const slots = sections[kind];
    if (!slots) continue;
    const keys = new Map<string, DocSlot>();
    docKeys.set(kind, keys);
    slots.forEach((slot, index) => {
      const key = slot.ok ? slot.entry.config_key : slot.config_key;
      if (!key) return;
      const at = (...rest: Segment[]) => formatPath([SECTION_OF[kind], index, ...rest]);
      const earlier = keys.get(key);
      if (earlier) {
        errors.push({
          path: at('config_key'),
          message: `Duplicate config_key "${key}" (also ${SECTION_OF[kind]}[${earlier.index}])`,
        });
        return;
      }
      const byKey = snap.byKey[kind].get(key) as { id: string } | undefined;
      const wantedId = slot.ok ? slot.entry.id : undefined;
      if (wantedId !== undefined) {
        const row = snap.byId[kind].get(wantedId) as { id: string; configKey?: string | null } | undefined;
        if (byKey && byKey.id !== wantedId)
          errors.push({ path: at('id'), message: `config_key "${key}" already belongs to ${LABEL[kind]} ${byKey.id}` });
        else if (!row)
          errors.push({ path: at('id'), message: `No live ${LABEL[kind]} with this id in the organization` });
        else if (row.configKey && row.configKey !== key)
          errors.push({ path: at('id'), message: `The ${LABEL[kind]} already has config_key "${row.configKey}"` });
        else if (!row.configKey) adopted.add(row.id);
      }
      keys.set(key, { id: byKey?.id ?? wantedId ?? randomUUID(), index });
    });
  }
  return { docKeys, adopted };
}

/** With prune: managed items of the document's sections that it no longer names, and the metrics of deleted services. */
function prunedItems(
  sections: ConfigSections,
  snap: Snapshot,
  docKeys: Map<ConfigKind, Map<string, DocSlot>>,
  prune: boolean,
): Map<ConfigKind, Set<string>> {
  const deleted = new Map<ConfigKind, Set<string>>(CONFIG_KINDS.map((k) => [k, new Set<string>()]));
  if (!prune) return deleted;
  for (const kind of CONFIG_KINDS) {
    const keys = docKeys.get(kind);
    if (!sections[kind] || !keys) continue;
    for (const row of snap.rows[kind] as { id: string; configKey?: string | null }[]) {
      if (row.configKey && !keys.has(row.configKey)) deleted.get(kind)!.add(row.id);
    }
  }
  // As DELETE /v1/services/{id} does: a deleted service takes its metrics with it, unless the document keeps them (elsewhere).
  const keptMetrics = new Set([...(docKeys.get('metric')?.values() ?? [])].map((s) => s.id));
  for (const m of snap.rows.metric) {
    if (deleted.get('service')!.has(m.service) && !keptMetrics.has(m.id)) deleted.get('metric')!.add(m.id);
  }
  return deleted;
}

/**
 * Resolves a reference as written (a config_key in the document, an item's config_key, or its id;
 * an agent's name or id) to an id, or reports why it cannot be.
 */
function referenceResolver(
  snap: Snapshot,
  docKeys: Map<ConfigKind, Map<string, DocSlot>>,
  deleted: Map<ConfigKind, Set<string>>,
  errors: FieldError[],
  ctx: OrgContext,
  warnings: FieldError[],
) {
  return (base: Segment[]) =>
    (target: RefTarget, value: string, path: Segment[]): string => {
      const at = formatPath([...base, ...path]);
      if (target === 'agent') {
        const byId = isUuid(value) ? snap.agents.find((a) => a.id === value) : undefined;
        const named = byId ? [byId] : snap.agents.filter((a) => a.name === value && !a.revokedAt);
        if (!named.length) {
          errors.push({ path: at, message: `No agent named "${value}" or with that id in the organization` });
          return value;
        }
        if (named.length > 1) {
          errors.push({ path: at, message: `${named.length} agents are named "${value}"; name the agent by its id` });
          return value;
        }
        const agent = named[0]!;
        const status = agentStatus(agent, ctx.now);
        if (status === 'revoked') errors.push({ path: at, message: `The agent "${agent.name}" is revoked` });
        // As one of a cloud metric's locations, a silent agent is an absent vote, not a metric without data.
        else if (status === 'never_connected')
          warnings.push({
            path: at,
            message: `The agent "${agent.name}" has never connected; ${path[0] === 'locations' ? 'it does not vote' : 'the metric reports no data'} until it does`,
          });
        else if (status === 'offline')
          warnings.push({
            path: at,
            message: `The agent "${agent.name}" is offline (last seen ${agent.lastSeenAt!.toISOString()})`,
          });
        return agent.id;
      }
      const fromDoc = docKeys.get(target)?.get(value);
      if (fromDoc) return fromDoc.id;
      const row = (snap.byKey[target].get(value) ?? (isUuid(value) ? snap.byId[target].get(value) : undefined)) as
        { id: string } | undefined;
      if (!row) {
        errors.push({
          path: at,
          message: `No ${LABEL[target]} "${value}": not in the document, and no ${LABEL[target]} has that config_key or id`,
        });
        return value;
      }
      if (deleted.get(target)!.has(row.id))
        errors.push({
          path: at,
          message: `The ${LABEL[target]} "${value}" is not in the document, and prune deletes it`,
        });
      return row.id;
    };
}

/**
 * Judges a document against the organization as it is: every problem at once (400 config_invalid
 * with paths), then what deleting would orphan (409 in_use) and the plan's quotas. Writes nothing.
 */
export async function buildPlan(ctx: OrgContext, doc: ParsedDocument, options: ApplyOptions): Promise<ConfigPlan> {
  const snap = await loadSnapshot(ctx.em, ctx.org.id);
  const errors: FieldError[] = [...doc.errors];
  const warnings: FieldError[] = [];
  const { docKeys, adopted } = matchEntries(doc.sections, snap, errors);
  const deleted = prunedItems(doc.sections, snap, docKeys, options.prune);
  const resolverAt = referenceResolver(snap, docKeys, deleted, errors, ctx, warnings);

  const items: ItemPlan[] = [];
  const legacy: number[] = [];
  for (const kind of CONFIG_KINDS) {
    (doc.sections[kind] ?? []).forEach((slot, index) => {
      if (!slot.ok) return;
      const entry = slot.entry;
      const slotIds = docKeys.get(kind)!.get(entry.config_key);
      if (!slotIds || slotIds.index !== index) return; // a duplicate key, reported
      const existing = snap.byId[kind].get(slotIds.id) ?? null;
      const record = mapRefs(kind, requestedRecord(kind, entry, existing), resolverAt([SECTION_OF[kind], index]));
      if (kind === 'metric' && keepsLegacyConfirmation(entry as EntryOf['metric'], existing as RowOf['metric'] | null))
        legacy.push(index);
      items.push({
        kind,
        key: entry.config_key,
        id: slotIds.id,
        action: 'unchanged',
        existing,
        record,
        adopts: adopted.has(slotIds.id),
        index,
        diff: [],
      });
    });
  }
  await checkEntries(ctx, items, deleted, errors, warnings);
  if (legacy.length) warnings.push(legacyConfirmationWarning(legacy));
  if (errors.length) {
    throw new ProblemError(
      'config_invalid',
      `The document has ${errors.length} problem${errors.length > 1 ? 's' : ''}; nothing was written.`,
      { errors, warnings },
    );
  }

  for (const item of items) {
    const stored = item.existing ? storedRecord(item.kind, item.existing) : null;
    item.action = !stored ? 'create' : item.adopts || !sameValue(stored, item.record) ? 'update' : 'unchanged';
  }
  for (const kind of CONFIG_KINDS) {
    for (const id of deleted.get(kind)!) {
      const row = snap.byId[kind].get(id) as RowOf[typeof kind] & { configKey?: string | null };
      items.push({
        kind,
        key: row.configKey ?? null,
        id,
        action: 'delete',
        existing: row,
        record: null,
        adopts: false,
        index: null,
        diff: [],
      });
    }
  }
  await assertDeletable(ctx, snap, items);
  assertQuotas(ctx, snap, items, options.contractsAllowed);
  describeChanges(snap, items, docKeys);
  return { items, warnings, snapshot: snap };
}

/** One warning for every metric that keeps the pre-confirmation failures 1 / recoveries 1 because the document names no confirmation. */
function legacyConfirmationWarning(indexes: number[]): FieldError {
  const shown = indexes
    .slice(0, 5)
    .map((i) => `metrics[${i}]`)
    .join(', ');
  const more = indexes.length > 5 ? ` and ${indexes.length - 5} more` : '';
  const n = indexes.length;
  return {
    path: indexes.length === 1 ? `metrics[${indexes[0]}].confirmation` : 'metrics',
    message: `${n} metric${n > 1 ? 's' : ''} (${shown}${more}) name${n > 1 ? '' : 's'} no confirmation and keep${n > 1 ? '' : 's'} failures 1 / recoveries 1 from before confirmed status; write confirmation: {} for the defaults (majority, 2 and 2), or the values to keep`,
  };
}

/** Fills each item's field-level diff, references shown as config_keys (or ids where an item has none). */
function describeChanges(snap: Snapshot, items: ItemPlan[], docKeys: Map<ConfigKind, Map<string, DocSlot>>): void {
  const keyOf = new Map<string, string>();
  for (const kind of CONFIG_KINDS) {
    for (const row of snap.rows[kind] as { id: string; configKey?: string | null }[])
      if (row.configKey) keyOf.set(row.id, row.configKey);
    for (const [key, slot] of docKeys.get(kind) ?? []) keyOf.set(slot.id, key);
  }
  const display = displayRefs(snap, keyOf);
  for (const item of items) {
    if (item.action !== 'create' && item.action !== 'update') continue;
    const before =
      item.action === 'update' ? mapRefs(item.kind, storedRecord(item.kind, item.existing!), display) : null;
    const after = mapRefs(item.kind, item.record!, display);
    item.diff = [
      ...(item.adopts ? [{ field: 'config_key', before: null, after: item.key }] : []),
      ...diffFields(before, after),
    ];
  }
}

/** References for people: an item's config_key when it has one, an agent's name when no other agent shares it, else the id. */
export function displayRefs(snap: Snapshot, keyOf: ReadonlyMap<string, string>) {
  const nameCount = new Map<string, number>();
  for (const a of snap.agents) nameCount.set(a.name, (nameCount.get(a.name) ?? 0) + 1);
  const agentName = new Map(snap.agents.filter((a) => nameCount.get(a.name) === 1).map((a) => [a.id, a.name]));
  return (target: RefTarget, id: string): string =>
    target === 'agent' ? (agentName.get(id) ?? id) : (keyOf.get(id) ?? id);
}

/** The plan as the API answers it. */
export function plannedChanges(plan: ConfigPlan, dryRun: boolean): PlannedChange[] {
  return plan.items.map((i) => ({
    kind: i.kind,
    config_key: i.key,
    name: nameOf(i.kind, i.record ?? storedRecord(i.kind, i.existing!)),
    action: i.action,
    id: dryRun && i.action === 'create' ? null : i.id,
    diff: i.diff,
  }));
}
