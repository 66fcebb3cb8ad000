import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

export const MaintenanceSchema = defineEntity({
  name: 'Maintenance',
  tableName: 'maintenances',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    title: p.string().length(300),
    description: p.text().nullable(),
    affectedServices: p.array().columnType('uuid[]'),
    scheduledStartAt: p.datetime(3),
    scheduledEndAt: p.datetime(3),
    actualStartAt: p.datetime(3).nullable(),
    actualEndAt: p.datetime(3).nullable(),
    canceledAt: p.datetime(3).nullable(),
    deletedAt: p.datetime(3).nullable(),
    /** When maintenance.starting_soon was emitted (once per row). */
    startingSoonAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});
export type Maintenance = InferEntity<typeof MaintenanceSchema>;

export const MaintenanceMessageSchema = defineEntity({
  name: 'MaintenanceMessage',
  tableName: 'maintenance_messages',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    maintenance: p.manyToOne(MaintenanceSchema).mapToPk().deleteRule('cascade').index(),
    type: p.string().length(16),
    body: p.text(),
    /** system (started, completed, canceled), update (an operator's message) or reschedule. */
    kind: p.string().length(16).default('system'),
    /** Updates only: whether subscribers were emailed. */
    notifySubscribers: p.boolean().nullable(),
    postedAt: p.datetime(3),
  },
});
export type MaintenanceMessage = InferEntity<typeof MaintenanceMessageSchema>;
