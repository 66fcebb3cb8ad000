import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { ImpactMap } from '../../domain/incident-impact';
import { OrganizationSchema } from './organization';

/** A prepared incident (title, first message, severity, services and their impacts) to start one in two clicks. */
export const IncidentTemplateSchema = defineEntity({
  name: 'IncidentTemplate',
  tableName: 'incident_templates',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    name: p.string().length(200),
    title: p.string().length(300),
    /** The first message of an incident started from it; null: none. */
    body: p.text().nullable(),
    severity: p.string().length(16),
    messageType: p.string().length(16),
    affectedServices: p.array().columnType('uuid[]'),
    serviceImpacts: p.json<ImpactMap>(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    deletedAt: p.datetime(3).nullable(),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});
export type IncidentTemplate = InferEntity<typeof IncidentTemplateSchema>;
