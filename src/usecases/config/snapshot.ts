import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type Agent,
  AgentSchema,
  ContractSchema,
  CustomerSchema,
  MetricSchema,
  ServiceSchema,
  SloSchema,
  StatusPageSchema,
  WebhookSubscriptionSchema,
} from '../../db/entities';
import { CONFIG_KINDS, type ConfigKind } from '../../domain/config/kinds';
import type { RowOf } from './records';

export const ENTITY_OF: { [K in ConfigKind]: EntityName<RowOf[K]> } = {
  customer: CustomerSchema,
  service: ServiceSchema,
  metric: MetricSchema,
  slo: SloSchema,
  status_page: StatusPageSchema,
  webhook: WebhookSubscriptionSchema,
  contract: ContractSchema,
};

/** The organization's live items of every kind a document manages, indexed by id and config_key. */
export interface Snapshot {
  rows: { [K in ConfigKind]: RowOf[K][] };
  byId: { [K in ConfigKind]: Map<string, RowOf[K]> };
  byKey: { [K in ConfigKind]: Map<string, RowOf[K]> };
  agents: Agent[];
}

export async function loadSnapshot(em: EntityManager, organizationId: string): Promise<Snapshot> {
  const live = { organization: organizationId, deletedAt: null };
  const order = { orderBy: { createdAt: 'asc', id: 'asc' } } as const;
  // One after another: inside an apply they share the transaction's connection.
  const loaded: Record<string, unknown[]> = {};
  for (const k of CONFIG_KINDS)
    loaded[k] = await em.find(ENTITY_OF[k] as EntityName<{ id: string }>, live as never, order);
  const rows = loaded as unknown as Snapshot['rows'];
  const byId = {} as Record<ConfigKind, Map<string, { id: string }>>;
  const byKey = {} as Record<ConfigKind, Map<string, { id: string }>>;
  for (const k of CONFIG_KINDS) {
    const list = rows[k] as { id: string; configKey?: string | null }[];
    byId[k] = new Map(list.map((r) => [r.id, r]));
    byKey[k] = new Map(list.filter((r) => r.configKey).map((r) => [r.configKey!, r]));
  }
  const agents = await em.find(AgentSchema, { organization: organizationId }, order);
  return { rows, byId: byId as Snapshot['byId'], byKey: byKey as Snapshot['byKey'], agents };
}
