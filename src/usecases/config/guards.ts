import { SlaStatementSchema, SubscriberSchema } from '../../db/entities';
import { CONFIG_KINDS, type ConfigKind, SECTION_OF, formatPath } from '../../domain/config/kinds';
import type { Fields } from '../../domain/config/plan';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import type { Capability } from '../../domain/plans';
import { assertNotSuspended, assertPlanFeature, assertResultWithinQuota } from '../../domain/quota';
import type { OrgContext } from '../shared/context';
import type { ItemPlan } from './items';
import { type RowOf, nameOf, referencesOf, storedRecord } from './records';
import type { Snapshot } from './snapshot';

const CAPABILITY_OF: Partial<Record<ConfigKind, Capability>> = {
  customer: 'customers',
  service: 'services',
  metric: 'metrics',
  status_page: 'status_pages',
  webhook: 'webhooks',
};

interface Reference {
  id: string;
  config_key: string | null;
  name: string;
}

/** What will exist after the apply, with the references each item holds. */
function survivors(snap: Snapshot, items: ItemPlan[]): { kind: ConfigKind; ref: Reference; record: Fields }[] {
  const planned = new Map(items.map((i) => [i.id, i]));
  const out: { kind: ConfigKind; ref: Reference; record: Fields }[] = [];
  for (const item of items) {
    if (item.action !== 'delete')
      out.push({
        kind: item.kind,
        ref: { id: item.id, config_key: item.key, name: nameOf(item.kind, item.record!) },
        record: item.record!,
      });
  }
  for (const kind of CONFIG_KINDS) {
    for (const row of snap.rows[kind] as (RowOf[ConfigKind] & { configKey?: string | null })[]) {
      if (planned.has(row.id)) continue;
      const record = storedRecord(kind, row);
      out.push({ kind, ref: { id: row.id, config_key: row.configKey ?? null, name: nameOf(kind, record) }, record });
    }
  }
  return out;
}

/**
 * 409 in_use (spec §2.5) when the apply would delete what a remaining SLO, status page or contract
 * still uses, a page with active subscribers, or a contract with statements, or change a contract
 * field that is fixed once statements exist. Nothing is written then.
 */
export async function assertDeletable(ctx: OrgContext, snap: Snapshot, items: ItemPlan[]): Promise<void> {
  const deleted = new Set(items.filter((i) => i.action === 'delete').map((i) => i.id));
  const users = new Map<string, { kind: ConfigKind; ref: Reference }>();
  if (deleted.size) {
    for (const s of survivors(snap, items)) {
      if (s.kind !== 'slo' && s.kind !== 'status_page' && s.kind !== 'contract') continue;
      if (referencesOf(s.kind, s.record).some((r) => deleted.has(r.id))) users.set(s.ref.id, s);
    }
  }
  const deletedPages = items.filter((i) => i.action === 'delete' && i.kind === 'status_page').map((i) => i.id);
  const subscribers = deletedPages.length
    ? await ctx.em.count(SubscriberSchema, { page: { $in: deletedPages }, state: { $in: ['pending', 'confirmed'] } })
    : 0;
  const { statements, fixedErrors } = await contractsWithStatements(ctx, items);
  if (!users.size && !subscribers && !statements) return;
  const list = (kind: ConfigKind) => [...users.values()].filter((u) => u.kind === kind).map((u) => u.ref);
  const blockers = [
    users.size
      ? `${users.size} remaining item${users.size > 1 ? 's' : ''} (${[...users.values()].map((u) => `${u.kind} ${u.ref.config_key ?? u.ref.id}`).join(', ')}) still use what it deletes`
      : '',
    subscribers ? `a status page it deletes has ${subscribers} active subscriber${subscribers > 1 ? 's' : ''}` : '',
    statements
      ? `${statements} SLA statement${statements > 1 ? 's' : ''} stay with the contracts it deletes or changes`
      : '',
  ].filter(Boolean);
  throw new ProblemError('in_use', `The apply would orphan data: ${blockers.join('; ')}. Nothing was written.`, {
    referenced_by: {
      slos: list('slo'),
      pages: list('status_page'),
      subscribers,
      ...(statements ? { sla_statements: statements } : {}),
    },
    ...(fixedErrors.length ? { errors: fixedErrors } : {}),
  });
}

/** Statements that block a contract's delete, or a change of its customer, timezone or currency. */
async function contractsWithStatements(
  ctx: OrgContext,
  items: ItemPlan[],
): Promise<{ statements: number; fixedErrors: FieldError[] }> {
  const fixedErrors: FieldError[] = [];
  let statements = 0;
  for (const item of items.filter((i) => i.kind === 'contract' && (i.action === 'delete' || i.action === 'update'))) {
    const stored = storedRecord('contract', item.existing as RowOf['contract']);
    const changed =
      item.action === 'update'
        ? (['customer', 'timezone', 'currency'] as const).filter((f) => stored[f] !== item.record![f])
        : [];
    if (item.action === 'update' && !changed.length) continue;
    const count = await ctx.em.count(SlaStatementSchema, { contract: item.id });
    if (!count) continue;
    statements += count;
    for (const f of changed)
      fixedErrors.push({
        path: formatPath([SECTION_OF.contract, item.index!, f]),
        message: 'Fixed once statements exist: end the contract with effective_to and add a new one',
      });
  }
  return { statements, fixedErrors };
}

/** The plan's quotas apply to what the organization ends with; items beyond them stay read-only. */
export function assertQuotas(ctx: OrgContext, snap: Snapshot, items: ItemPlan[], contractsAllowed: boolean): void {
  const { plan } = ctx.org;
  for (const kind of CONFIG_KINDS) {
    const mine = items.filter((i) => i.kind === kind);
    const capability = CAPABILITY_OF[kind];
    if (kind === 'contract' && mine.some((i) => i.action !== 'unchanged')) {
      assertPlanFeature(plan, 'sla_ledger', 'the SLA Ledger (contracts and SLA statements)', ctx.pricingUrl);
      if (!contractsAllowed)
        throw new ProblemError(
          'forbidden',
          'The document changes SLA contracts: the API key needs write:sla besides write:config.',
        );
    }
    if (!capability) continue;
    const used = snap.rows[kind].length;
    const result =
      used - mine.filter((i) => i.action === 'delete').length + mine.filter((i) => i.action === 'create').length;
    assertResultWithinQuota(plan, capability, used, result, ctx.pricingUrl);
    const cap = plan.quotas[capability];
    if (cap === null) continue;
    const rank = new Map((snap.rows[kind] as { id: string }[]).map((r, i) => [r.id, i]));
    for (const i of mine.filter((x) => x.action === 'update'))
      assertNotSuspended(plan, capability, rank.get(i.id)!, used, ctx.pricingUrl);
  }
}
