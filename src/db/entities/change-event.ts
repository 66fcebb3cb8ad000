import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

/** A deploy, config change or feature-flag flip an operator (or a CI pipeline) reported. */
export const ChangeEventSchema = defineEntity({
  name: 'ChangeEvent',
  tableName: 'change_events',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    kind: p.string().length(32),
    title: p.string().length(300),
    description: p.text().nullable(),
    serviceIds: p.array().columnType('uuid[]'),
    actor: p.string().length(200).nullable(),
    source: p.string().length(100).nullable(),
    links: p.json<{ label: string; url: string }[]>(),
    metadata: p.json<Record<string, string>>(),
    occurredAt: p.datetime(3),
    createdAt: p.datetime(3),
  },
  indexes: [
    { properties: ['organization', 'occurredAt', 'id'] },
    {
      name: 'change_events_service_ids_index',
      expression: 'create index change_events_service_ids_index on change_events using gin (service_ids)',
    },
  ],
});
export type ChangeEvent = InferEntity<typeof ChangeEventSchema>;
